"""The chat-completions adapter against a small local server that answers like one: a whole game through it."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import hidden_role_envs
from hidden_role_envs.policies import scripted_player
from hidden_role_envs.text import ChatCompletionsAgent, TextSeat
from hidden_role_envs.training.evaluate import play_games
from tests.text.agents import listed_actions


class Server:
    """A chat-completions server on a free local port: it answers the last listed legal action by name, after
    first answering nonsense to every third request; `status` other than 200 makes it fail."""

    def __init__(self, status: int = 200):
        self.requests: list[dict] = []
        self.status = status
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), **body})
                if server.status != 200:
                    self.send_response(server.status)
                    self.end_headers()
                    self.wfile.write(b'{"error": "overloaded"}')
                    return
                legal = listed_actions(body["messages"][-1]["content"])
                content = "let me think" if len(server.requests) % 3 == 0 else legal[-1]
                answer = {"id": "x", "object": "chat.completion", "model": body["model"],
                          "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                       "finish_reason": "stop"}]}
                data = json.dumps(answer).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/v1"
        threading.Thread(target=self.http.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()

    def close(self):
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture
def server():
    running = Server()
    yield running
    running.close()


def test_a_game_is_played_through_a_chat_completions_server(server):
    env = hidden_role_envs.make("secrets", num_players=5)
    agent = ChatCompletionsAgent(server.url, "a-local-model", api_key="key-for-the-test", temperature=0)
    seat = TextSeat(agent, env, "llm", seed=0)
    players = [seat] + [scripted_player(env, s) for s in range(1, 5)]
    play_games(env, players, 1, seed=0)

    assert env.unwrapped.game_over
    assert len(server.requests) == seat.figures.replies > seat.figures.decisions > 0
    assert seat.figures.illegal_replies == len(server.requests) // 3 and seat.figures.fallbacks == 0
    for request in server.requests:
        assert request["path"] == "/v1/chat/completions"
        assert request["model"] == "a-local-model" and request["temperature"] == 0
        assert request["auth"] == "Bearer key-for-the-test"
        assert request["messages"][0]["role"] == "system"
        assert [m["role"] for m in request["messages"][1:]] == ["user", "assistant"] * (len(request["messages"]) // 2
                                                                                        - 1) + ["user"]
    refused = server.requests[3]["messages"]  # the request after the third, refused, reply
    assert refused[-2] == {"role": "assistant", "content": "let me think"}
    assert refused[-1]["content"].startswith("'let me think' is not a legal action now.")


def test_a_server_error_is_raised_with_what_the_server_said():
    failing = Server(status=503)
    try:
        agent = ChatCompletionsAgent(failing.url + "/chat/completions", "m")
        with pytest.raises(RuntimeError, match="503.*overloaded"):
            agent.chat([{"role": "user", "content": "hello"}])
        assert failing.requests[0]["path"] == "/v1/chat/completions" and failing.requests[0]["auth"] is None
    finally:
        failing.close()
