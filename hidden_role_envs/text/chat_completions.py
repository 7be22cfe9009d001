"""A text agent served by a chat-completions HTTP server of the common OpenAI-compatible kind.

    agent = ChatCompletionsAgent("http://localhost:8000/v1", "qwen2.5-7b-instruct")
    hidden-roles evaluate secrets --seats llm:qwen2.5-7b-instruct@http://localhost:8000/v1,scripted

vLLM, llama.cpp's server, Ollama, LM Studio and hosted APIs answer `POST {url}/chat/completions` with
`{"model": ..., "messages": [...]}` in this shape. The server and the model are arguments; nothing is assumed of
either. Only the standard library is used (the `llm` extra needs nothing more).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any


class ChatCompletionsAgent:
    """`chat(messages) -> reply`: the conversation is posted to `{url}/chat/completions`; the reply is the first
    choice's message. `options` go into every request as they are (`temperature`, `max_tokens`, `seed`...)."""

    def __init__(self, url: str, model: str, api_key: str | None = None, timeout: float = 120.0, **options: Any):
        base = url.rstrip("/")
        self.endpoint = base if base.endswith("/chat/completions") else base + "/chat/completions"
        self.model = model
        self.api_key = api_key
        self.timeout = timeout
        self.options = options

    def chat(self, messages: list[dict[str, str]]) -> str:
        body = json.dumps({"model": self.model, "messages": messages, **self.options}).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.endpoint, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                answer = json.load(response)
        except urllib.error.HTTPError as error:
            detail = error.read().decode(errors="replace")[:300]
            raise RuntimeError(f"{self.endpoint} answered {error.code} {error.reason}: {detail}") from None
        except urllib.error.URLError as error:
            raise RuntimeError(f"cannot reach {self.endpoint}: {error.reason}") from None
        try:
            return answer["choices"][0]["message"]["content"] or ""
        except (KeyError, IndexError, TypeError):
            raise RuntimeError(f"{self.endpoint} answered without a choice's message: {str(answer)[:300]}") from None
