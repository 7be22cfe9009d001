"""What the conformance suite needs to know of Mascarade: its other tables, leak twins and invariants."""

from __future__ import annotations

import numpy as np

from hidden_role_envs.games.mascarade.actions import (
    CLAIM,
    FOOL_SWAP,
    GUESS,
    LOOK,
    PASS,
    SPY_LOOK,
    SPY_SWAP,
    SWAP,
)
from hidden_role_envs.games.mascarade.characters import CHARACTERS, CHEAT, CHEAT_COINS, STARTING_COINS, WINNING_COINS
from hidden_role_envs.games.mascarade.knowledge import EXACT_PLACES
from hidden_role_envs.games.mascarade.rules import ASK_CLAIM, ASK_TURN
from tests.support import PublicTwin, Twin

# A custom set at 8 players (Spy, Inquisitor, Widow and both Peasants), extra centre cards at 6 and 7 players.
SET8 = ["Spy", "Inquisitor", "Widow", "King", "Queen", "Peasant", "Peasant", "Judge"]
CONFIGS = [(6, {"extra_centre_cards": 1}), (7, {"extra_centre_cards": 2}), (8, {"characters": SET8})]
GAMES_PER_TABLE = 150  # x 12 player counts, and 100 for each other table: 2,100 games


def playouts(n: int, arguments: dict) -> int:
    return GAMES_PER_TABLE if not arguments else 100


# --- leak twins -------------------------------------------------------------
# The deal is open: what a seat may not know is whether another seat's swap-or-not swapped. Twin b plays
# the other choice at the first swap-or-not of two different cards, from a given turn on, by a seat other
# than the watcher; the watcher can tell the games apart once it sees a card that differs.


def swapped_places(engine, actor: int, action: int) -> tuple[int, int] | None:
    """The two places a swap-or-not handles, or None for any other action."""
    kind, args = engine.actions.meaning[action]
    places = engine.config.place_called[actor]
    if kind in (SWAP, FOOL_SWAP):
        return places[args[0]], places[args[1]]
    if kind == SPY_SWAP:
        return engine.table.power_places
    return None


def the_other_choice(watcher: int, from_turn: int):
    def diverge(env, actor: int, action: int) -> int | None:
        engine = env.unwrapped.engine
        places = swapped_places(engine, actor, action)
        if actor == watcher or engine.turns_played < from_turn or places is None:
            return None
        p, q = places
        if engine.cards[p] == engine.cards[q]:
            return None  # swapped or not, the same cards lie at the same places
        kind, args = engine.actions.meaning[action]
        flipped = not args if kind == SPY_SWAP else (*args[:2], not args[2])
        return engine.actions.id_of(kind, flipped)

    return diverge


def sees_a_difference(watcher: int):
    """The rulebook's answer to "does this action show `watcher` a card that differs between the games?"."""

    def learns(env_a, env_b, actor: int, action: int) -> bool:
        a, b = env_a.unwrapped.engine, env_b.unwrapped.engine
        kind, args = a.actions.meaning[action]
        places = a.config.place_called[actor]

        def differs(place: int) -> bool:
            return a.cards[place] != b.cards[place]

        if kind == LOOK:  # only the looker sees its card
            return actor == watcher and differs(places[args])
        if kind == SPY_LOOK:  # the Spy sees its own card and the other
            return actor == watcher and (differs(a.power_place) or differs(places[args]))
        if kind == GUESS:  # the questioned card is revealed to all
            return differs(a.table.power_places[0])
        if kind in (CLAIM, PASS) and (actor + 1) % a.num_players == a.table.announcer:
            shown = list(a.table.claim_places) + ([places[args]] if kind == CLAIM else [])
            return len(shown) > 1 and any(differs(p) for p in shown)  # with a claim, every claimant reveals
        return False

    return learns


def twins(n: int) -> list[Twin]:
    cases = []
    for trial in range(10):
        watcher = trial % n
        cases.append(Twin(({"first_player": (trial * 3) % n},) * 2, watcher, sees_a_difference(watcher),
                          seed=trial, diverge=the_other_choice(watcher, from_turn=trial % 7)))
    return cases


def public_twins(n: int) -> list[PublicTwin]:
    """Only which character was announced differs (the Judge with an empty courthouse or the Cheat below 10
    coins: neither power changes anything, so only the record can tell the games apart once the turn is over);
    only who claimed differs (a claim or a pass)."""

    def announcements(env):
        u = env.unwrapped
        table = u.engine.table
        if table.decision != ASK_TURN or table.forced or table.courthouse or table.coins[table.to_act] >= CHEAT_COINS:
            return None
        return u.string_to_action("announce Judge"), u.string_to_action("announce Cheat")

    def claims(env):
        u = env.unwrapped
        if u.engine.table.decision != ASK_CLAIM:
            return None
        return u.string_to_action("claim"), u.string_to_action("pass")

    return [PublicTwin(fork, seed=seed) for fork in (announcements, claims) for seed in range(4)]


# --- invariants -------------------------------------------------------------


def check_step(env) -> None:
    """Cards and coins are conserved, and every seat's knowledge is a matrix of beliefs that keeps the truth."""
    engine = env.unwrapped.engine
    config = env.unwrapped.config
    table = engine.table
    n = config.num_players
    assert sorted(engine.cards) == list(config.characters)
    assert min(table.coins) >= 0 and table.courthouse >= 0, "coins never go negative"
    assert sum(table.coins) + table.courthouse == STARTING_COINS * n + table.from_bank
    field = env.unwrapped.observation_fields["knowledge"]
    counts = np.array(config.counts)
    for seat in range(n):
        probs = env.observe(f"player_{seat}")["observation"][field].reshape(config.num_places, len(CHARACTERS))
        assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)
        # exact up to 7 cards; above, the approximation's Sinkhorn passes bring the columns close
        assert np.abs(probs.sum(axis=0) - counts).max() < (1e-5 if config.num_places <= EXACT_PLACES else 0.05)
        assert all(probs[row, engine.cards[place]] > 0 for row, place in enumerate(config.place_called[seat]))


def expected_winners(coins: list[int], cheat_in_play: bool) -> list[int]:
    """The rulebook's end, worked out from the final coins alone."""
    if max(coins) >= WINNING_COINS:
        return [s for s, c in enumerate(coins) if c >= WINNING_COINS]
    if min(coins) == 0:
        return [s for s, c in enumerate(coins) if c == max(coins)]
    assert cheat_in_play, "the game ended with nobody at 13 coins or broke, and no Cheat in play"
    return []  # the Cheat's: one seat, with 10 coins or more (checked by the caller)


def check_end(env, info: dict, received: dict[str, float]) -> None:
    engine = env.unwrapped.engine
    config = env.unwrapped.config
    agents = env.possible_agents
    check_step(env)
    coins = list(engine.table.coins)
    assert info["coins"] == dict(zip(agents, coins))
    winners = expected_winners(coins, CHEAT in config.characters)
    if not winners:
        assert len(info["winners"]) == 1 and info["coins"][info["winners"][0]] >= CHEAT_COINS
        winners = [agents.index(info["winners"][0])]
    assert info["winners"] == [agents[s] for s in winners]
    assert received == {a: 1.0 if s in winners else -1.0 for s, a in enumerate(agents)}
    hand = config.hand
    for seat, agent in enumerate(agents):
        names = [CHARACTERS[engine.cards[p]] for p in config.places_of(seat)]
        assert info["characters"][agent] == (names[0] if hand == 1 else names)
    space = env.observation_space(agents[0])["observation"]
    for agent in agents:  # coins past 13 are clipped: the final observations are in the space too
        assert space.contains(env.observe(agent)["observation"])
