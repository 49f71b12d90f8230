"""`RemoteMonitor`: post each epoch's logs to an HTTP server, with the standard library only."""

import json
import urllib.error
import urllib.parse
import urllib.request
import warnings

import numpy as np

from tripod.training.callbacks.callback import Callback

#: seconds to wait for the server before giving up on one epoch's post
TIMEOUT_S = 10.0


class RemoteMonitor(Callback):
    """POST `{"epoch": ..., **logs}` to `root + path` at the end of every epoch.

    With `send_as_json=True` the body is that JSON (`application/json`); otherwise it is a form
    whose field `field` holds the JSON. A server that cannot be reached gives a warning, not an
    error, so training goes on.
    """

    def __init__(
        self,
        root="http://localhost:9000",
        path="/publish/epoch/end/",
        field="data",
        headers=None,
        send_as_json=False,
    ):
        super().__init__()
        scheme = urllib.parse.urlsplit(f"{root}{path}").scheme
        if scheme not in ("http", "https"):
            raise ValueError(
                "RemoteMonitor posts to an http:// or https:// URL; received "
                f"root={root!r}, path={path!r}."
            )
        self.root = root
        self.path = path
        self.field = field
        self.headers = headers
        self.send_as_json = send_as_json

    def on_epoch_end(self, epoch, logs=None):
        payload = {"epoch": epoch}
        payload.update({k: _plain(v) for k, v in (logs or {}).items()})
        try:
            with urllib.request.urlopen(self._request(payload), timeout=TIMEOUT_S):
                pass
        except urllib.error.HTTPError:
            pass  # the server answered (with an error status): it was reached, as in Keras
        except (urllib.error.URLError, OSError):
            warnings.warn(f"Could not reach RemoteMonitor root server at {self.root}", stacklevel=2)

    def _request(self, payload):
        """The POST request carrying `payload`, as JSON or as a form field."""
        if self.send_as_json:
            body, content_type = json.dumps(payload).encode("utf8"), "application/json"
        else:
            body = urllib.parse.urlencode({self.field: json.dumps(payload)}).encode("utf8")
            content_type = "application/x-www-form-urlencoded"
        headers = {"Content-Type": content_type, **(self.headers or {})}
        url = self.root + self.path
        return urllib.request.Request(url, data=body, headers=headers, method="POST")


def _plain(value):
    """A log value as JSON can hold it: NumPy scalars and arrays become Python numbers/lists."""
    if isinstance(value, (np.ndarray, np.generic)):
        return value.tolist()
    return value
