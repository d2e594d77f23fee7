"""A small Server-Sent Events reader for the tests: a thread reads, a queue hands events over."""

from __future__ import annotations

import contextlib
import json
import queue
import threading
from dataclasses import dataclass
from typing import Any

import httpx

END = "<end>"


@dataclass
class Event:
    """One SSE event (``event`` defaults to ``message``); ``data`` is parsed JSON."""

    event: str
    id: str
    data: Any


class SSEReader:
    """Open ``url`` as an event stream in a thread; :meth:`next` returns events in order."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.url = url
        self.headers = {"Accept": "text/event-stream", **(headers or {})}
        self.events: queue.Queue[Event | str] = queue.Queue()
        self.status: int | None = None
        self.response_headers: dict[str, str] = {}
        self.body = b""
        self.comments = 0
        self.error: Exception | None = None
        self._ready = threading.Event()
        self._client = httpx.Client(timeout=httpx.Timeout(5.0, read=None))
        self._response: httpx.Response | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        if not self._ready.wait(20):
            raise TimeoutError(f"no response from {url}")

    def _run(self) -> None:
        try:
            with self._client.stream("GET", self.url, headers=self.headers) as response:
                self._response = response
                self.status = response.status_code
                self.response_headers = dict(response.headers)
                if response.status_code != 200:
                    self.body = response.read()
                    self._ready.set()
                    return
                self._ready.set()
                fields: dict[str, str] = {}
                for line in response.iter_lines():
                    if line == "":
                        if "data" in fields:
                            self.events.put(
                                Event(
                                    fields.get("event", "message"),
                                    fields.get("id", ""),
                                    json.loads(fields["data"]),
                                )
                            )
                        fields = {}
                    elif line.startswith(":"):
                        self.comments += 1
                    else:
                        name, _, value = line.partition(":")
                        fields[name] = value.removeprefix(" ")
        except Exception as exc:  # closed from outside, or the server went away
            self.error = exc
        finally:
            self._ready.set()
            self.events.put(END)

    def next(self, timeout: float = 20.0, *, skip: tuple[str, ...] = ("countdown",)) -> Event | str:
        """The next event not in ``skip`` (or :data:`END`); raises after ``timeout`` s."""
        while True:
            item = self.events.get(timeout=timeout)
            if isinstance(item, str) or item.event not in skip:
                return item

    def expect(self, name: str, timeout: float = 20.0) -> Event:
        """The next event, which must be ``name``."""
        item = self.next(timeout)
        assert isinstance(item, Event), f"the stream ended ({self.error!r}) instead of {name}"
        assert item.event == name, item
        return item

    def problem(self) -> dict[str, Any]:
        """The problem document of a refused stream."""
        return dict(json.loads(self.body))

    def close(self) -> None:
        """Stop reading and close the connection."""
        with contextlib.suppress(Exception):
            if self._response is not None:
                self._response.close()
        with contextlib.suppress(Exception):
            self._client.close()
        self._thread.join(5)
