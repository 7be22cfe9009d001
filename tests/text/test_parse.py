"""Reading an action from a reply: what is accepted, and what is refused with the legal actions listed."""

import pytest

from hidden_role_envs.text import Refusal, read_action

LEGAL = ["offer +1", "offer +1 as Scientist", "offer +1 as Spy", "offer +2 as Diplomat", "accept", "refuse"]


@pytest.mark.parametrize(
    "reply, action",
    [
        ("accept", "accept"),  # an exact name
        ("  ACCEPT.  ", "accept"),  # case, spaces and a final full stop do not matter
        ("`refuse`", "refuse"),
        ("**offer +2 as Diplomat**", "offer +2 as Diplomat"),
        ("offer  +1   as scientist", "offer +1 as Scientist"),
        ("5", "accept"),  # a number from the list
        ("2.", "offer +1 as Scientist"),
        ("6. refuse", "refuse"),  # the list's line as shown
        ("offer +1", "offer +1"),  # a whole name wins over the longer names it starts
        ("offer +2", "offer +2 as Diplomat"),  # a unique start
        ("offer +1 as Sc", "offer +1 as Scientist"),
        ("acc", "accept"),
        ("\n\nrefuse\nbecause the card is bad", "refuse"),  # the first non-empty line is the action
    ],
)
def test_a_name_a_number_or_a_unique_start_is_accepted(reply, action):
    assert LEGAL[read_action(reply, LEGAL)] == action


@pytest.mark.parametrize(
    "reply, why",
    [
        ("", "empty"),
        ("   \n  ", "empty"),
        ("0", "numbered 0"),
        ("7", "numbered 7"),
        ("offer +1 as S", "starts several"),  # Scientist and Spy
        ("offer +3", "not a legal action"),
        ("I accept", "not a legal action"),
        ("5. refuse", "not a legal action"),  # the number and the name disagree
        ("because the card is bad\naccept", "not a legal action"),  # the action must come first
    ],
)
def test_anything_else_is_refused_with_the_legal_actions(reply, why):
    with pytest.raises(Refusal) as refused:
        read_action(reply, LEGAL)
    message = str(refused.value)
    assert why in message
    assert "\n".join(f"{i}. {name}" for i, name in enumerate(LEGAL, 1)) in message
