"""Mascarade told to a language-model agent: the rules at one table (its cards in play), and the facts it may weigh."""

from __future__ import annotations

from hidden_role_envs.core.seats import agent_name
from hidden_role_envs.games.mascarade.characters import (
    CHARACTERS,
    CHEAT_COINS,
    NUM_CHARACTERS,
    PREPARATION_TURNS,
    STARTING_COINS,
    WIDOW_COINS,
    WINNING_COINS,
)
from hidden_role_envs.games.mascarade.config import MascaradeConfig
from hidden_role_envs.text.beliefs import BeliefQuestion

POWERS = {
    "Judge": "take all the coins of the courthouse",
    "Bishop": "take 2 coins from the richest other player (you choose among ties)",
    "King": "take 3 coins from the bank",
    "Fool": "take 1 coin from the bank, then swap or not, unseen, the cards of two other players",
    "Queen": "take 2 coins from the bank",
    "Thief": "take 1 coin from each neighbour",
    "Witch": "you may swap all your coins with another player's",
    "Spy": "look at your card and another card, then swap them or not, unseen",
    "Peasant": "take 1 coin from the bank, or 2 each if both Peasants are revealed together",
    "Cheat": f"win at once if you have {CHEAT_COINS} coins or more",
    "Inquisitor": "choose another player, who names the character they think they are and reveals: if wrong, they "
                  "pay you 4 coins",
    "Widow": f"take coins from the bank up to {WIDOW_COINS}",
}


def rules(config: MascaradeConfig) -> str:
    n, hand, centre = config.num_players, config.hand, config.num_centre
    in_play = ", ".join(CHARACTERS[c] for c in config.characters)
    cards = "a character card" if hand == 1 else "two character cards, A and B (one fortune for both)"
    where = f", and {centre} more lie face down in the centre" if centre else ""
    powers = "; ".join(f"{name}: {POWERS[name]}" for name in dict.fromkeys(CHARACTERS[c] for c in config.characters))
    return "\n\n".join([
        f"The cards in play: {in_play}. Every player starts with {STARTING_COINS} coins and {cards}{where}. All cards "
        "are shown face up at the start, then turned face down; from then on they move unseen.",
        f"On a turn you do one thing: swap your card with another card, or only pretend to, under the table (nobody "
        "else knows which); or look at your own card; or announce \"I am the <character>\" (any character in play) to "
        f"use its power. The first {PREPARATION_TURNS} turns of the game are swaps or not only, and a player whose "
        "card was revealed in the previous turn may only swap or not. After an announcement every other player, in "
        "turn, claims to be that character too or passes. If nobody claims, the announcer uses the power unseen. "
        "Otherwise every claimant reveals their card: the real one uses the power, and every false claimant pays 1 "
        "coin to the courthouse.",
        f"The powers: {powers}. A player who must pay more than they have pays all they have.",
        f"A player with {WINNING_COINS} coins or more wins at once. When a player has no coin left the game ends "
        "and the richest win, ties sharing the win.",
    ] + ([f"With {n} players each of you holds two cards: swaps may use either of your cards, a look is at one "
          "of them, and an announcement or a claim names the card it is made with."] if hand == 2 else []))


def belief_questions(config: MascaradeConfig, seat: int) -> list[BeliefQuestion]:
    """The character of every card, from the seat's `knowledge` block (its rows: its own card(s), then each seat's to
    its left, then the centre); only the characters in play are asked about."""
    n, hand = config.num_players, config.hand
    in_play = tuple(dict.fromkeys(config.characters))
    questions = []
    for row in range(config.num_places):
        offset, card = divmod(row, hand)
        letter = f" {'AB'[card]}" if hand == 2 else ""
        if offset >= n:
            label = f"centre card {row - n * hand + 1}"
        elif offset == 0:
            label = f"your card{letter}"
        else:
            label = f"card{letter} of {agent_name((seat + offset) % n)}"
        entries = tuple(row * NUM_CHARACTERS + c for c in in_play)
        questions.append(BeliefQuestion(label, tuple(CHARACTERS[c] for c in in_play), "knowledge", entries))
    return questions
