"""Announcements and counter-claims in a game of Mascarade, per seat (see `hidden_role_envs.core.behaviour`).

In Mascarade contesting is claiming: "I am the King too" both says what one
is and disputes the announcer. So:

- A claim: an announcement (`Announced`, "I am the King") or a counter-claim
  (`Claimed`, "I am it too").
- False: the card at the place the seat claimed with is not that character
  (the cards are followed from the open deal through every real swap).
- Caught: the false claim's card was revealed, so the seat paid its fine
  and used no power. An announcement is revealed when somebody contests it;
  uncontested, a false one succeeds (the announcer uses the power). A
  counter-claim is always revealed: a false one is always caught.
- A challenge: a counter-claim, on another seat's announcement.
- Right: that announcement was false.

The Inquisitor's question (`Guessed`: the answer is forced, then revealed)
is neither.
"""

from __future__ import annotations

from hidden_role_envs.core.behaviour import Behaviour, Tally
from hidden_role_envs.games.mascarade.events import Announced, Claimed, Dealt, Swapped


def tally(events, config) -> list[Behaviour]:
    counts = Tally(config.num_players)
    cards: list[int] = []
    for event in events:
        if isinstance(event, Dealt):
            cards = list(event.cards)
        elif isinstance(event, Swapped):
            cards[event.p], cards[event.q] = cards[event.q], cards[event.p]
        elif isinstance(event, Announced):
            announced = event
            announcement_false = cards[event.place] != event.character
            contested = False
            counts.claim(event.announcer, announcement_false)
        elif isinstance(event, Claimed):
            false = cards[event.place] != announced.character
            counts.claim(event.claimant, false)
            if false:
                counts.caught(event.claimant)
            counts.challenge(event.claimant, right=announcement_false)
            if announcement_false and not contested:
                counts.caught(announced.announcer)
            contested = True
    return counts.seats()
