"""What the conformance suite needs to know of Secrets: its other tables, leak twins and invariants."""

from __future__ import annotations

from collections import Counter

import numpy as np

from hidden_role_envs.games.secrets.actions import (
    ANSWER,
    CENTRE,
    DETECTIVE_LOOK,
    OFFER,
    POLITICIAN_TARGET,
    UN_CHOICE,
)
from hidden_role_envs.games.secrets.cards import (
    ASSASSIN,
    BULLET_VALUES,
    CARD_COPIES,
    CARD_VALUES,
    DIPLOMAT,
    DOUBLE_AGENT,
    IDENTITIES,
    JOURNALIST,
    TOKENS_BY_PLAYERS,
    max_turns_of_a_game,
)
from tests.support import PublicTwin, Twin

CONFIGS = [(5, {"claims": False}), (5, {"reward": "score"})]
GAMES_PER_TABLE = 400  # x 5 player counts = 2,000 games
FULL_DECK = Counter({card: copies for card, copies in enumerate(CARD_COPIES)})


def playouts(n: int, arguments: dict) -> int:
    return GAMES_PER_TABLE if not arguments else 50


# --- leak twins -------------------------------------------------------------


def deal(n: int, seed: int) -> list[str]:
    tokens = [IDENTITIES[k] for k, c in enumerate(TOKENS_BY_PLAYERS[n]) for _ in range(c)]
    return [tokens[i] for i in np.random.default_rng(seed).permutation(len(tokens))]


def seen_at_start(seat: int, n: int) -> set[int]:
    """The early intelligence: own token; the right neighbour's at 5+; the centre at 7+."""
    places = {seat}
    if n >= 5:
        places.add((seat - 1) % n)
    if n >= 7:
        places.add(n)
    return places


def reveals_to(watcher: int):
    """The rulebook's answer to "does this action let `watcher` see a token, or a Bullet, that differs?"."""

    def learns(env_a, env_b, actor: int, action: int) -> bool:
        a, b = env_a.unwrapped.engine, env_b.unwrapped.engine
        n = a.num_players
        kind, arg = a.actions.meaning[action]

        def differs(place: int) -> bool:
            return a.tokens[place] != b.tokens[place]

        if kind == DETECTIVE_LOOK and actor == watcher:
            return differs(n if arg == CENTRE else (actor + arg) % n)
        if kind == POLITICIAN_TARGET and actor == watcher:
            return differs((actor + arg) % n)
        if kind in (UN_CHOICE, ANSWER):
            receiver = actor if arg else a.table.active if kind == ANSWER else None
            if receiver is None:  # the UN player let it pass: nothing is revealed yet
                return False
            card = a.offered_card
            if card == JOURNALIST:  # the receiver's token is shown to every other seat
                return receiver != watcher and differs(receiver)
            if card == DOUBLE_AGENT:  # the receiver swaps with the centre and looks at its new token
                return receiver == watcher and differs(n)
            if card == DIPLOMAT:  # the centre is shown to everyone
                return differs(n)
            if card == ASSASSIN:  # the receiver draws the top Bullet and sees it
                return receiver == watcher and a.bullet_deck[0] != b.bullet_deck[0]
        return False

    return learns


def twins(n: int) -> list[Twin]:
    cases = []
    for trial in range(12):
        tokens = deal(n, trial)
        watcher = trial % n
        unseen = [p for p in range(n + 1) if p not in seen_at_start(watcher, n)]
        pairs = [(p, q) for p in unseen for q in unseen if p < q and tokens[p] != tokens[q]]
        if pairs:
            p, q = pairs[trial % len(pairs)]
            other = tokens[:]
            other[p], other[q] = other[q], other[p]
            cases.append(Twin(({"tokens": tokens}, {"tokens": other}), watcher, reveals_to(watcher), seed=trial))
        order = list(np.random.default_rng(trial).permutation(BULLET_VALUES).tolist())
        cases.append(Twin(({"bullets": order}, {"bullets": order[::-1]}), watcher, reveals_to(watcher), seed=trial))
    return cases


def public_twins(n: int) -> list[PublicTwin]:
    """Only the claim of an Offer differs; only which token a Detective looks at differs."""

    def claims(env):
        u = env.unwrapped
        if u.engine.table.decision != OFFER:
            return None
        offers = [a for a in np.flatnonzero(u.observe(env.agent_selection)["action_mask"]) if u.actions.args[a][0] == 1]
        claimed = [a for a in offers if u.actions.args[a][1] is not None]
        return (int(claimed[0]), int(claimed[1])) if len(claimed) >= 2 else None

    def looks(env):
        u = env.unwrapped
        if u.engine.table.decision != DETECTIVE_LOOK:
            return None
        legal = np.flatnonzero(u.observe(env.agent_selection)["action_mask"])
        return int(legal[1]), int(legal[2])

    return [PublicTwin(claims, seed=seed) for seed in range(3)] + [PublicTwin(looks, seed=seed) for seed in range(6)]


# --- invariants -------------------------------------------------------------


def check_step(env) -> None:
    """Cards and Bullets are conserved, screen counts add up, and no seat's knowledge rules out the truth."""
    engine = env.unwrapped.engine
    assert Counter(engine.all_character_cards()) == FULL_DECK
    bullets = list(engine.bullet_deck) + [v for received in engine.bullets_received for _, v in received]
    if engine.bullet_in_hand is not None:
        bullets.append(engine.bullet_in_hand)
    assert sorted(bullets) == sorted(BULLET_VALUES)
    t = engine.table
    n = engine.num_players
    assert t.cards == [sum(t.face_up[s]) + t.face_down[s] + t.bullets[s] for s in range(n)]
    fields = env.unwrapped.observation_fields
    for seat in range(n):
        vector = env.observe(f"player_{seat}")["observation"]
        givers = vector[fields["bullet_givers"]].reshape(n, n)
        assert np.array_equal(givers.sum(axis=1), vector[fields["bullets_received"]])
        for k in range(n):
            receiver = (seat + k) % n
            true_givers = Counter(g for g, _ in engine.bullets_received[receiver])
            assert all(givers[k, j] == true_givers[(seat + j) % n] for j in range(n))
        teammate = vector[fields["teammate"]]
        for k in range(n):
            same_team = engine.tokens[(seat + k) % n] == engine.tokens[seat] != 2  # 2: Hippie
            assert teammate[k] > 0 if same_team else teammate[k] < 1
        probs = vector[fields["identity"]].reshape(n + 1, 3)
        assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)
        places = [(seat + k) % n for k in range(n)] + [n]
        assert all(probs[row, engine.tokens[p]] > 0 for row, p in enumerate(places))
        bottom = vector[fields["deck_bottom"]].reshape(-1, 8)  # what the seat knows of the deck's bottom is true
        deck = list(engine.deck)
        for row in range(len(bottom)):
            if bottom[row].any():
                assert bottom[row][deck[-1 - row]] > 0
        assert vector[fields["deck_size"]][0] == len(deck)


def expected_winners(info: dict, agents: list[str]) -> set[str]:
    """The rulebook's outcome, computed independently from the revealed identities and scores."""
    scores, identities = info["scores"], info["identities"]
    lowest = min(scores.values())
    lowest_agents = [a for a in agents if scores[a] == lowest]
    if len(lowest_agents) == 1 and identities[lowest_agents[0]] == "Hippie":
        return set(lowest_agents)
    cia = sum(scores[a] for a in agents if identities[a] == "CIA")
    kgb = sum(scores[a] for a in agents if identities[a] == "KGB")
    return set() if cia == kgb else {a for a in agents if identities[a] == ("CIA" if cia > kgb else "KGB")}


def check_end(env, info: dict, received: dict[str, float]) -> None:
    engine = env.unwrapped.engine
    n = engine.num_players
    agents = env.possible_agents
    check_step(env)
    assert engine.turns_played <= max_turns_of_a_game(n)
    assert any(c >= engine.end_size for c in engine.table.cards)
    for seat in range(n):
        face_up_value = sum(c * v for c, v in zip(engine.table.face_up[seat], CARD_VALUES))
        assert info["scores"][f"player_{seat}"] == face_up_value + sum(v for _, v in engine.bullets_received[seat])
    winners = expected_winners(info, agents)
    assert set(info["winners"]) == winners
    if env.unwrapped.reward_mode == "win":
        assert received == {a: 1.0 if a in winners else -1.0 for a in agents}
