"""Claims and Hoax calls in a game of Hoax, per seat (see `hidden_role_envs.core.behaviour`).

- A claim: a turn's claim of a character (`Claimed`) or an immunity claim
  (`ImmunityClaimed`); both can be called Hoax.
- False: the character claimed is not the one the claimant was dealt.
- Caught: a Hoax call on it led the vote to check it (`ClaimChecked`, not
  truthful): the claimant takes an impostor token. A false claim that nobody
  calls, or that the vote lets stand, succeeds.
- A challenge: calling Hoax on a claim (`HoaxCalled`).
- Right: the claim called was false, whatever the vote then did.
"""

from __future__ import annotations

from hidden_role_envs.core.behaviour import Behaviour, Tally
from hidden_role_envs.games.hoax.events import ClaimChecked, Claimed, Dealt, HoaxCalled, ImmunityClaimed


def tally(events, config) -> list[Behaviour]:
    counts = Tally(config.num_players)
    dealt = {}
    latest_claim_false = {}  # by seat: a Hoax call questions the claimant's latest claim
    for event in events:
        if isinstance(event, Dealt):
            dealt[event.seat] = event.character
        elif isinstance(event, Claimed | ImmunityClaimed):
            false = event.character != dealt[event.claimant]
            counts.claim(event.claimant, false)
            latest_claim_false[event.claimant] = false
        elif isinstance(event, HoaxCalled):
            counts.challenge(event.seat, right=latest_claim_false[event.claimant])
        elif isinstance(event, ClaimChecked) and not event.truthful:
            counts.caught(event.seat)
    return counts.seats()
