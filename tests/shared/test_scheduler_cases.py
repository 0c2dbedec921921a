"""The one scheduler for background work (firmware/scheduler.py): the order jobs run in,
finishing and cancelling them, and the job that holds the presses.

Runs under CPython and inside MicroPython (tests/firmware/test_on_micropython.py); the
frame's rule, which takes one part a frame, is tests/firmware/test_frame_rule.py.
"""

import scheduler
from check import equal, true


def _parts(log, name, n):
    """A job of ``n`` parts that logs each, and its end (closed or over)."""
    try:
        for i in range(n):
            log.append((name, i))
            if i < n - 1:
                yield
    finally:
        log.append((name, "end"))


def _run_all(jobs):
    steps = 0
    while jobs.busy():
        jobs.step()
        steps += 1
    return steps


def test_a_job_runs_a_part_a_step_and_a_function_is_one_part():
    jobs = scheduler.Scheduler()
    log = []
    jobs.add(scheduler.OPEN, _parts(log, "open", 3))
    jobs.add(scheduler.METER, lambda: log.append(("meter", 0)))
    jobs.step()
    equal(log, [("open", 0)])
    equal(jobs.ran, scheduler.OPEN)
    true(jobs.busy(scheduler.OPEN))
    equal(_run_all(jobs), 3)  # the opening's two parts left (its last ends it), the meter
    equal(log, [("open", 0), ("open", 1), ("open", 2), ("open", "end"), ("meter", 0)])
    true(not jobs.busy())


def test_saves_go_before_other_work_and_each_kind_keeps_its_order():
    jobs = scheduler.Scheduler()
    log = []
    jobs.add(scheduler.OPEN, _parts(log, "open", 1))
    jobs.add(scheduler.DECIDE, _parts(log, "decide", 1))
    jobs.add(scheduler.SAVE, _parts(log, "save", 2))
    jobs.add(scheduler.END, _parts(log, "end", 1))
    _run_all(jobs)
    names = [entry[0] for entry in log if entry[1] != "end"]
    equal(names, ["save", "save", "end", "open", "decide"])


def test_finish_runs_what_is_left_of_a_range_now_in_queue_order():
    jobs = scheduler.Scheduler()
    log = []
    jobs.add(scheduler.PREPARE, _parts(log, "prepare", 1))
    jobs.add(scheduler.SAVE, _parts(log, "save", 2))
    jobs.add(scheduler.SETUP, _parts(log, "setup", 1))
    jobs.add(scheduler.END, _parts(log, "end", 3))
    jobs.step()  # the save's first part
    jobs.finish(scheduler.SAVE, scheduler.END)
    equal(
        [e for e in log if e[1] != "end"], [("save", 0), ("save", 1), ("setup", 0), ("end", 0), ("end", 1), ("end", 2)]
    )
    true(not jobs.busy(scheduler.SAVE, scheduler.END))
    true(jobs.busy(scheduler.PREPARE))  # other work waits for its own part
    jobs.finish(scheduler.PREPARE)
    true(not jobs.busy())


def test_cancel_closes_a_generator_and_drops_a_range():
    jobs = scheduler.Scheduler()
    log = []
    jobs.add(scheduler.SAVE, _parts(log, "save", 2))
    jobs.add(scheduler.OPEN, _parts(log, "open", 5))
    jobs.add(scheduler.PREPARE, lambda: log.append(("prepare", 0)))
    jobs.add(scheduler.DECIDE, _parts(log, "decide", 2))
    jobs.add(scheduler.COLLECT, lambda: log.append(("collect", 0)))
    jobs.finish(scheduler.SAVE)
    jobs.step()  # the opening's first part
    jobs.cancel(scheduler.OPEN, scheduler.DECIDE)  # a game quit: its work goes
    true(("open", "end") in log)  # its finally ran
    true(not jobs.busy(scheduler.OPEN, scheduler.DECIDE))
    _run_all(jobs)
    equal([e for e in log if e[0] in ("prepare", "decide", "collect")], [("collect", 0)])


def test_the_held_job_keeps_the_presses_waiting_while_it_is_queued():
    jobs = scheduler.Scheduler()
    true(not jobs.busy(jobs.hold))
    jobs.add(scheduler.BOOT, _parts([], "boot", 2), True)
    jobs.add(scheduler.SAVE, _parts([], "save", 1))
    true(jobs.busy(jobs.hold))
    jobs.step()
    true(jobs.busy(jobs.hold))
    jobs.step()  # the boot is over
    true(not jobs.busy(jobs.hold))
    true(jobs.busy())


def test_a_part_that_queues_or_finishes_other_jobs_keeps_its_own_place():
    jobs = scheduler.Scheduler()
    log = []

    def saving():
        log.append(("save", 0))
        jobs.add(scheduler.SETUP, lambda: log.append(("setup", 0)))
        jobs.add(scheduler.METER, lambda: log.append(("meter", 0)))
        yield
        jobs.finish(scheduler.SETUP)  # it ran at once, out of its turn
        log.append(("save", 1))

    jobs.add(scheduler.OPEN, _parts(log, "open", 1))
    jobs.add(scheduler.SAVE, saving())
    _run_all(jobs)
    equal([e for e in log if e[1] != "end"], [("save", 0), ("setup", 0), ("save", 1), ("open", 0), ("meter", 0)])


def test_a_full_queue_says_so():
    jobs = scheduler.Scheduler()
    for _ in range(8):
        jobs.add(scheduler.COLLECT, lambda: None)
    try:
        jobs.add(scheduler.COLLECT, lambda: None)
    except MemoryError:
        return
    true(False, what="a ninth job was queued")
