"""RemoteMonitor posts each epoch's logs to a local HTTP server (a bounded thread on 127.0.0.1)."""

import http.server
import json
import socket
import threading
import urllib.parse

import pytest

import tripod as keras
from tests.training.callbacks.helpers import X, Y, linear_model, needs_training
from tripod.callbacks import RemoteMonitor


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"])).decode("utf8")
        self.server.received.append((self.path, dict(self.headers), body))
        self.send_response(self.server.status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        """Quiet: no request lines on stderr."""


class LocalServer:
    """Answers at most `requests` POSTs on 127.0.0.1 (a free port), then stops by itself; each
    wait for a request is bounded, so a test that sends nothing cannot hang."""

    def __init__(self, requests, status=200):
        self.httpd = http.server.HTTPServer(("127.0.0.1", 0), _Handler)
        self.httpd.received, self.httpd.status, self.httpd.timeout = [], status, 10
        self.thread = threading.Thread(target=self._serve, args=(requests,), daemon=True)

    @property
    def root(self):
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def _serve(self, requests):
        for _ in range(requests):
            self.httpd.handle_request()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.thread.join(timeout=15)
        self.httpd.server_close()

    @property
    def received(self):
        return self.httpd.received


@needs_training
def test_posts_epoch_logs_as_a_form_field_by_default():
    with LocalServer(2) as server:
        history = linear_model().fit(
            X,
            Y,
            epochs=2,
            verbose=0,
            callbacks=[RemoteMonitor(root=server.root, headers={"X-Run": "r1"})],
        )
    assert [path for path, _, _ in server.received] == ["/publish/epoch/end/"] * 2
    for epoch, (_, headers, body) in enumerate(server.received):
        assert headers["Content-Type"] == "application/x-www-form-urlencoded"
        assert headers["X-Run"] == "r1"
        form = urllib.parse.parse_qs(body)
        assert list(form) == ["data"]
        assert json.loads(form["data"][0]) == {
            "epoch": epoch,
            "loss": history.history["loss"][epoch],
        }


@needs_training
def test_posts_json_to_root_plus_path():
    with LocalServer(1) as server:
        model = linear_model()
        history = model.fit(
            X,
            Y,
            epochs=1,
            verbose=0,
            validation_split=0.25,
            callbacks=[
                RemoteMonitor(root=server.root, path="/runs/7", field="ignored", send_as_json=True)
            ],
        )
    ((path, headers, body),) = server.received
    assert path == "/runs/7" and headers["Content-Type"] == "application/json"
    sent = json.loads(body)
    assert sent == {
        "epoch": 0,
        "loss": history.history["loss"][0],
        "val_loss": history.history["val_loss"][0],
    }


def _closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_server_warns_and_training_goes_on():
    monitor = RemoteMonitor(root=f"http://127.0.0.1:{_closed_port()}")
    with pytest.warns(UserWarning, match="Could not reach RemoteMonitor root server"):
        monitor.on_epoch_end(0, {"loss": 1.0})


def test_an_error_status_is_not_a_warning_the_server_was_reached(recwarn):
    with LocalServer(1, status=500) as server:
        RemoteMonitor(root=server.root, send_as_json=True).on_epoch_end(3, {"loss": 0.5})
    assert json.loads(server.received[0][2]) == {"epoch": 3, "loss": 0.5}
    assert not [w for w in recwarn if "RemoteMonitor" in str(w.message)]


def test_only_http_urls_are_accepted():
    with pytest.raises(ValueError, match="RemoteMonitor posts to an http"):
        RemoteMonitor(root="file:///etc", path="/passwd")


def test_keras_signature_and_defaults():
    monitor = keras.callbacks.RemoteMonitor()
    assert (monitor.root, monitor.path, monitor.field, monitor.headers, monitor.send_as_json) == (
        "http://localhost:9000",
        "/publish/epoch/end/",
        "data",
        None,
        False,
    )
