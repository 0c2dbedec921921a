"""The advice behind the ``advise`` command, as JSON-ready answers: the optimal move for
a position from the firmware's advisor (``advise``), each player's chance to win from the
win meter (``chances``) and the options ranked by the CPU win level (``advise_to_win``)."""

import host_tools

host_tools.use_firmware()
import strategy_advisor as A  # noqa: E402
import rules as R  # noqa: E402
import strategy_table  # noqa: E402


def advise(adv, card, dice=None, rolls_left=None):
    """The JSON-ready answer for a position."""
    adv.prepare(card)
    if dice is None:
        return {"expected_total": A.to_points(adv.expected_total())}
    codes = [0] * 32
    values = [0] * 32
    n = adv.options(dice, rolls_left, codes, values)
    options = []
    kept = sorted(dice)
    for i in range(n):
        if rolls_left == 0:
            option = {"box": adv.rules.ids[codes[i]]}
        else:
            kept = sorted(dice[j] for j in range(5) if codes[i] >> j & 1)
            option = {"hold": kept}
            if adv.rules.faces:
                option["animals"] = [adv.rules.face_name(d) for d in kept]
        option["expected_total"] = A.to_points(values[i])
        options.append(option)
    result = {"expected_total": options[0]["expected_total"], "best": options[0], "options": options}
    if rolls_left:  # stopping here instead: the best box for these dice, as on the last roll
        n = adv.options(dice, 0, codes, values)
        result["score_now"] = {"box": adv.rules.ids[codes[0]], "expected_total": A.to_points(values[0])}
    return result


def standing(adv, spread, card):
    """(total, expected remaining in sixteenths, sd in sixteenths, used boxes) of a card."""
    import strategy_win_meter

    mask = up = used = 0
    for b in range(R.N_BOXES):
        if card[b] != R.OPEN:
            mask |= 1 << b
            used += 1
            up += card[b] if b < R.N_UPPER else 0
    up = min(up, strategy_table.UPPER_CAP)
    yz = 1 if card[R.YAHTZEE] == 50 else 0
    total = R.totals(adv.rules, card)[4]
    if mask == R.ALL_BOXES:
        return total, 0, 0, used
    return total, strategy_win_meter.from_fixed(adv.table.value(mask, up, yz)), spread.sd(mask, up, yz), used


def chances(adv, spread, cards):
    """Each card's chance to win (fractions), the win meter's model, cards[0] = you."""
    import strategy_win_meter

    rows = [standing(adv, spread, c) for c in cards]
    out = [0] * 4
    strategy_win_meter.chances(
        len(cards), [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], [r[3] for r in rows], out
    )
    return [out[i] / strategy_win_meter.ONE for i in range(len(cards))]


def advise_to_win(adv, spread, card, others, dice=None, rolls_left=None):
    """The JSON-ready answer ranked by the chance to win against ``others``."""
    import seat_win
    import strategy_win_meter

    result = {"chances": chances(adv, spread, [card] + list(others))}
    if dice is None:
        return result
    level = seat_win.WinLevel(adv, spread)
    level.prepare(card, others)
    options = []
    if rolls_left == 0:
        out = [0] * 13
        R.score_options(adv.rules, card, dice, out)
        extra = R.yahtzee_bonus_for(adv.rules, card, dice)
        for b in range(R.N_BOXES):
            if out[b] >= 0:
                options.append((level.box_key(b, out[b], extra), -b, {"box": R.BOX_IDS[b]}))
    else:
        seen = set()
        for hold in range(32):
            kept = tuple(sorted(dice[j] for j in range(5) if hold >> j & 1))
            if kept not in seen:
                seen.add(kept)
                options.append((level.hold_key(dice, rolls_left, hold), -hold, {"hold": list(kept)}))
    options.sort(key=lambda o: (o[0], o[1]), reverse=True)
    ranked = []
    for key, _order, option in options:
        option["chance"] = level.chance(key) / strategy_win_meter.ONE
        ranked.append(option)
    result.update(best=ranked[0], options=ranked)
    return result
