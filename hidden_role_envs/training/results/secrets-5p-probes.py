"""How far a seat among Secrets' scripted players gets when it knows more than its observation, or predicts more.

Usage: python hidden_role_envs/training/results/secrets-5p-probes.py MODE GAMES (the learned-* modes need torch).
The probe plays as the scripted player (`bots.py`) in one seat (rotated, `evaluate.play_games`, seed 1) among four
scripted players at 5 players, except:

- known-tokens: its identity beliefs are the true tokens;
- learned-tokens: its identity beliefs (the exact posterior given what it saw) corrected by a net fitted to the
  true tokens of 6,000 games between scripted players, from the whole observation: what their play tells;
- known-card: answering an Offer, or choosing to intercept one, it knows the Offer's card;
- known-answers: making an Offer, it knows where the card would land for each target (accepted, refused or
  intercepted), played out on a copy of the game with the scripted players;
- learned-answers: the same, predicted from its own observation by a net fitted to 3,000 games of such copies;
- scripted: nothing more (the control).
"""

import copy
import math
import sys

import numpy as np

from hidden_role_envs.core import registry
from hidden_role_envs.games.secrets.actions import ANSWER, CHOOSE, OFFER, UN_CHOICE
from hidden_role_envs.games.secrets.bots import SecretsScriptedPlayer, _Position
from hidden_role_envs.games.secrets.events import CardRevealed
from hidden_role_envs.training.evaluate import play_games

N = 5
mode, games = sys.argv[1], int(sys.argv[2])
if mode not in ("known-tokens", "learned-tokens", "known-card", "known-answers", "learned-answers", "scripted"):
    raise SystemExit(__doc__)
env = registry.make("secrets", num_players=N)
config = env.unwrapped.config
copies_players = [SecretsScriptedPlayer(config, seed=100 + s) for s in range(N)]
meaning = copies_players[0].actions.meaning
OFFER_TO = {meaning[a][1][0]: a for a in range(len(meaning)) if meaning[a][0] == OFFER and meaning[a][1][1] is None}


def landing(game, actions) -> int:
    """Where the card lands once the current seat plays `actions` and the scripted players answer (a copy)."""
    game = copy.deepcopy(game)
    for action in actions:
        game.step(action)
    while True:
        for event in game.unwrapped.last_events:
            if isinstance(event, CardRevealed):
                return event.receiver
        agent = game.agent_selection
        game.step(copies_players[int(agent.split("_")[1])](game.observe(agent)))


def outcomes(game, seat: int, before=()) -> np.ndarray:
    """(target, [accepted, refused, intercepted]) one-hots of `seat`'s Offer to each target (relative to it), once
    it has played the actions `before` (its choice of card, if not made yet)."""
    found = np.zeros((N, 3))
    for target in range(1, N):
        lands = (landing(game, [*before, OFFER_TO[target]]) - seat) % N
        found[target, 0 if lands == target else 1 if lands == 0 else 2] = 1
    return found


class Probe(SecretsScriptedPlayer):
    predict = None  # learned-answers: observation -> (target, outcome) probabilities; learned-tokens: -> ids

    def __call__(self, observation):
        legal, views = self.read(observation)
        kind = meaning[int(legal[0])][0]
        pos = _Position(views, N, self.end_size, self.params)
        game = env.unwrapped
        seat = int(env.agent_selection.split("_")[1])
        if mode == "known-tokens":
            tokens = [game.engine.tokens[(seat + k) % N] for k in range(N)] + [game.engine.tokens[N]]
            pos.ids = [[float(kind_ == token) for kind_ in range(3)] for token in tokens]
        if mode == "learned-tokens":
            pos.ids = Probe.predict(observation["observation"]).tolist()
        if mode == "known-card" and kind in (ANSWER, UN_CHOICE):
            pos.offered_card = int(game.engine.offered_card)
        if mode in ("known-answers", "learned-answers") and kind in (CHOOSE, OFFER):
            scored = self._offers(kind, [int(a) for a in legal], pos, observation, seat)
        else:
            scored = self._score_actions(kind, [int(a) for a in legal], pos)
        best = max(value for _, value in scored)
        return int(self.rng.choice([a for a, value in scored if value >= best - 1e-9]))

    def _offers(self, kind, legal, pos, observation, seat):
        values = {}

        def on(card, place):
            if (card, place) not in values:
                values[card, place] = pos.value_of_card_on(card, place)
            return values[card, place]

        def offer_value(card, target, chances):
            accepted, refused, intercepted = chances[target]
            if pos.un_holder in (None, 0, target):
                return (accepted * on(card, target) + refused * on(card, 0)) / max(accepted + refused, 1e-9)
            return accepted * on(card, target) + refused * on(card, 0) + intercepted * on(card, pos.un_holder)

        if mode == "learned-answers":
            chances = Probe.predict(observation["observation"])
        if kind == CHOOSE:
            scored = []
            for a in legal:
                if mode == "known-answers":
                    chances = outcomes(env, seat, [a])
                scored.append((a, max(offer_value(meaning[a][1], t, chances) for t in range(1, N))))
            return scored
        plain = [a for a in legal if meaning[a][1][1] is None]
        if mode == "known-answers":  # the card is chosen
            chances = outcomes(env, seat)
        return [(a, offer_value(pos.offered_card, meaning[a][1][0], chances)) for a in plain]


def scripted_play(games: int):
    """(seat, observation, action) at each decision of `games` games between scripted players (seeds from
    10**6), each action played once the caller has looked at the game before it."""
    players = [SecretsScriptedPlayer(config, seed=s) for s in range(N)]
    for g in range(games):
        env.reset(seed=10**6 + g)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            seat = int(agent.split("_")[1])
            action = players[seat](observation)
            yield seat, observation, action
            env.step(action)


def fit_answers(record_games: int):
    """A net from the chooser's observation to each target's outcome, fitted to copies of scripted games."""
    import torch

    inputs, labels = [], []
    for seat, observation, action in scripted_play(record_games):
        if meaning[action][0] == CHOOSE:
            inputs.append(observation["observation"].copy())
            labels.append(outcomes(env, seat, [action])[1:].argmax(axis=1))
    x = torch.from_numpy(np.repeat(np.array(inputs, np.float32), N - 1, axis=0))
    x = torch.cat([x, torch.eye(N - 1).repeat(len(inputs), 1)], dim=1)
    y = torch.from_numpy(np.concatenate(labels))
    fit = len(x) * 9 // 10 // (N - 1) * (N - 1)  # the last tenth of the choices held out
    x, y, held_x, held_y = x[:fit], y[:fit], x[fit:], y[fit:]
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(x.shape[1], 256), torch.nn.ReLU(), torch.nn.Linear(256, 256),
                              torch.nn.ReLU(), torch.nn.Linear(256, 3))
    optimiser = torch.optim.Adam(net.parameters(), 1e-3)
    for _ in range(3):
        for batch in torch.randperm(len(x)).split(256):
            loss = torch.nn.functional.cross_entropy(net(x[batch]), y[batch])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
    with torch.no_grad():
        right = (net(held_x).argmax(1) == held_y).float().mean().item()
    commonest = np.bincount(y.numpy()).argmax()
    print(f"answers fitted to {fit // (N - 1)} choices; on the {len(held_y) // (N - 1)} held out, {right:.3f} of the "
          f"outcomes right (always the commonest: {(held_y.numpy() == commonest).mean():.3f})", flush=True)

    def predict(observation):
        rows = torch.cat([torch.from_numpy(np.repeat(observation[None].astype(np.float32), N - 1, 0)),
                          torch.eye(N - 1)], dim=1)
        with torch.no_grad():
            return np.vstack([np.zeros(3), torch.softmax(net(rows), -1).numpy()])

    return predict


def fit_tokens(record_games: int):
    """A net from the observation to each place's token (places relative to the seat, then the centre), added to
    the log of the exact posterior (the `identity` block) so that it starts from it."""
    import torch

    identity = env.unwrapped.observation_fields["identity"]
    inputs, labels = [], []
    for seat, observation, _ in scripted_play(record_games):
        tokens = env.unwrapped.engine.tokens
        inputs.append(observation["observation"].copy())
        labels.append([tokens[(seat + k) % N] for k in range(N)] + [tokens[N]])
    x, y = torch.from_numpy(np.array(inputs, np.float32)), torch.from_numpy(np.array(labels))
    fit = len(x) * 9 // 10  # the last tenth of the observations held out
    x, y, held_x, held_y = x[:fit], y[:fit], x[fit:], y[fit:]
    torch.manual_seed(0)
    body = torch.nn.Sequential(torch.nn.Linear(x.shape[1], 256), torch.nn.ReLU(), torch.nn.Linear(256, 256),
                               torch.nn.ReLU(), torch.nn.Linear(256, (N + 1) * 3))
    torch.nn.init.zeros_(body[-1].weight)
    torch.nn.init.zeros_(body[-1].bias)

    def logits(rows):
        exact = torch.log(torch.clamp(rows[:, identity].reshape(-1, N + 1, 3), min=1e-6))
        return exact + body(rows).reshape(-1, N + 1, 3)

    optimiser = torch.optim.Adam(body.parameters(), 1e-3)
    for _ in range(3):
        for batch in torch.randperm(len(x)).split(512):
            loss = torch.nn.functional.cross_entropy(logits(x[batch]).reshape(-1, 3), y[batch].reshape(-1))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
    with torch.no_grad():
        held = held_y.reshape(-1)
        exact_logits = torch.log(torch.clamp(held_x[:, identity].reshape(-1, 3), 1e-6))
        exact = torch.nn.functional.cross_entropy(exact_logits, held)
        fitted = torch.nn.functional.cross_entropy(logits(held_x).reshape(-1, 3), held)
    print(f"tokens fitted to {fit} observations; on the {len(held_x)} held out, cross-entropy per place "
          f"{exact:.3f} (the exact posterior) -> {fitted:.3f}", flush=True)

    def predict(observation):
        with torch.no_grad():
            return torch.softmax(logits(torch.from_numpy(observation[None].astype(np.float32))), -1)[0].numpy()

    return predict


if mode == "learned-tokens":
    Probe.predict = staticmethod(fit_tokens(6000))
if mode == "learned-answers":
    Probe.predict = staticmethod(fit_answers(3000))
players = [Probe(config, seed=0)] + [SecretsScriptedPlayer(config, seed=s) for s in range(1, N)]
wins, _ = play_games(env, players, games, seed=1)
rate, z = wins[0] / games, 1.96
centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
print(f"{mode}: {rate:.3f} [{centre - half:.3f}, {centre + half:.3f}] over {games} games; "
      f"a scripted seat beside it {sum(wins[1:]) / (games * (N - 1)):.3f}")
