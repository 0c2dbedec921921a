"""The perfect player on a challenge's dice, as ``python -m host_tools challenge`` prints
it: the firmware's own optimal level (seat_levels.perfect) on the firmware's dice
(game_challenge.challenge_die) through the firmware's advisor and the device's table, so the figure
is the one a challenge game shows at its end."""

import host_tools

host_tools.use_firmware()
import game_challenge  # noqa: E402  (firmware modules, importable after use_firmware)
import seat_levels  # noqa: E402


def perfect_game(adv, code):
    """``(total, rounds)``: the optimal player's game on challenge ``code`` (four letters)
    with the advisor ``adv``; a round is ``[faces, hold, faces, hold, faces, box,
    points]`` as seat_levels.perfect logs it (shorter when it scored early)."""
    rounds = []
    parts = seat_levels.perfect(
        adv, game_challenge.code_number(code), game_challenge.challenge_die, [0] * 32, [0] * 32, rounds
    )
    while True:
        try:
            next(parts)
        except StopIteration as done:
            return done.value, rounds


def as_json(ruleset, code, total, rounds):
    """The game as plain data: per round the rolls (their faces, and after each but the
    last the dice kept: their faces and as a hold mask, bit d die d), the box (its id)
    and its points."""
    out = []
    for line in rounds:
        rolls = []
        for i in range(0, len(line) - 2, 2):
            roll = {"dice": line[i]}
            if i + 1 < len(line) - 2:
                roll["hold"] = line[i + 1]  # bit d: die d kept
                roll["keep"] = [line[i][d] for d in range(5) if line[i + 1] >> d & 1]
            rolls.append(roll)
        out.append({"rolls": rolls, "box": ruleset.ids[line[-2]], "points": line[-1]})
    return {"code": code, "rules": ruleset.name, "rounds": out, "total": total}
