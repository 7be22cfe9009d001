"""Offers' claims and refusals in a game of Secrets, per seat (see `hidden_role_envs.core.behaviour`).

- A claim: an Offer that says what the card is (`Offered` with a claim; the
  claim is table talk, optional and non-binding).
- False: the card, turned face up where it lands (`CardRevealed`), is not
  the character claimed.
- Caught: the target refused the Offer, so the card lands on the liar's own
  screen. A false claim accepted, or intercepted by the UN player, succeeds
  in passing the card on.
- A challenge: refusing an Offer that carried a claim. Refusing an Offer
  that claimed nothing disputes no claim, and an interception takes the card
  rather than disputing it: neither counts.
- Right: the claim refused was false.

An Offer is counted when its card lands: one cut short by the turn limit is
not.
"""

from __future__ import annotations

from hidden_role_envs.core.behaviour import Behaviour, Tally
from hidden_role_envs.core.seats import NOBODY
from hidden_role_envs.games.secrets.events import CardRevealed, Offered


def tally(events, config) -> list[Behaviour]:
    counts = Tally(config.num_players)
    for event in events:
        if isinstance(event, Offered):
            offer = event
        elif isinstance(event, CardRevealed) and offer.claim != NOBODY:
            false = event.card != offer.claim
            counts.claim(offer.active, false)
            if event.receiver == offer.active:  # refused: only a refusal sends the card back
                counts.challenge(offer.target, right=false)
                if false:
                    counts.caught(offer.active)
    return counts.seats()
