from benchmarks import throughput


def test_quick_run_reports_every_case(capsys):
    assert throughput.main(["--seconds", "0.05", "--repeats", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in lines[1:]]
    expected = [(game, str(n)) for game, (_, counts) in throughput.CASES.items() for n in counts]
    assert [(r[0], r[1]) for r in rows] == expected
    assert {"secrets", "mascarade", "hoax", "spyfall"} <= {game for game, _ in expected}
    assert all(float(r[2].replace(",", "")) > 0 for r in rows)


def test_bad_numbers_are_refused(capsys):
    assert throughput.main(["--seconds", "0"]) == 2
    assert "error" in capsys.readouterr().err
