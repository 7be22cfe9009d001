"""Secrets told to a language-model agent: the rules at one table, and the hidden facts it may weigh."""

from __future__ import annotations

from hidden_role_envs.core.seats import agent_name
from hidden_role_envs.games.secrets.cards import CARD_COPIES, CARD_VALUES, CHARACTERS, IDENTITIES
from hidden_role_envs.games.secrets.config import SecretsConfig
from hidden_role_envs.text.beliefs import BeliefQuestion

EFFECTS = {
    "Double Agent": "swap your token with the centre token, then look at your new token",
    "Politician": "give the card to another player's screen (it counts there) and look at that player's token",
    "Psychiatrist": "swap the tokens of two other players, unseen",
    "Detective": "look at one token: yours, another player's or the centre's",
    "Journalist": "your token is shown to every other player",
    "Scientist": "a second face-up Scientist on a screen turns every face-up character there face down",
    "Diplomat": "the centre token is shown to all, then you swap it, unseen, with your left or right neighbour's",
    "Assassin": "draw a Bullet (0, -1, -2 or -3), see it, and give it face down to another player",
}


def rules(config: SecretsConfig) -> str:
    n = config.num_players
    cia, kgb, hippies = config.token_counts
    intelligence = "you see your own token"
    if n >= 5:
        intelligence += " and your right neighbour's (the player before you in turn order)"
    if n >= 7:
        intelligence += "; the centre token is shown to everyone"
    characters = "; ".join(f"{name} ({CARD_VALUES[c]:+d} points, {CARD_COPIES[c]} cards): {EFFECTS[name]}"
                           for c, name in enumerate(CHARACTERS))
    return "\n\n".join([
        f"Every player holds a face-down identity token, and one more lies in the centre: {cia} CIA, {kgb} KGB and "
        f"{hippies} Hippie token(s) in all. At the start {intelligence}. Tokens change hands during the game; your "
        "identity is the token you hold at the end.",
        "On a turn the active player draws until two different characters show, keeps one secretly and offers it face "
        "down to another player, perhaps saying (truly or not) what it is. The player holding the UN token, if "
        "neither the active player nor the target, may intercept the Offer and take the card; otherwise the target "
        "accepts it (it lands on the target's screen) or refuses it (it lands on the active player's). Whoever adds "
        "the card turns it face up and applies its effect.",
        f"The characters: {characters}. At the end of every turn, two identical face-up characters on one screen "
        "turn face down (worth 0), and a player with strictly fewer cards than every other takes the UN token.",
        f"The game ends at the end of the turn in which a screen reaches {config.end_size} cards. A player's score is "
        "the values of the face-up characters on their screen plus their Bullets. The team, CIA or KGB, with the "
        "higher total wins; on a tie nobody wins. But if a single Hippie has the strictly lowest score, that Hippie "
        "alone wins.",
    ])


def belief_questions(config: SecretsConfig, seat: int) -> list[BeliefQuestion]:
    """The identity token at every place, from the seat's `identity` block (its rows: itself, the seats to its
    left in turn order, the centre)."""
    n = config.num_players
    kinds = len(IDENTITIES)
    questions = []
    for row in range(n + 1):
        if row == n:
            label = "the centre token"
        else:
            label = "your token" if row == 0 else f"token of {agent_name((seat + row) % n)}"
        questions.append(BeliefQuestion(label, IDENTITIES, "identity", tuple(row * kinds + k for k in range(kinds))))
    return questions
