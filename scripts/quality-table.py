#!/usr/bin/env python3
"""make quality: the quality figures of --align seed, spread and planned (and of each with
--flat-end), 3 columns, 375 pt, default spacing and insets, seeds 1-5 averaged, on the real
feeds mj-shop-1 and xr-waterfall, on 500 random sizes (200-2000 x 200-3000, drawn from
SplitMix64 seeded 500) and on 1,000 mixed sizes not tuned to (widths 300-4000 and aspect ratios
0.3-3, both log-uniform, from SplitMix64 seeded 34), as the Markdown table of
docs/layout-rules.md.

    scripts/quality-table.py FALLS

The figures are falls's own (`falls layout --quality --format json`); this only averages them.
"""
import json
import os
import subprocess
import sys
import tempfile

MASK = (1 << 64) - 1


def splitmix(seed):
    """SplitMix64's units in [0, 1), as falls draws them."""
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield ((z ^ (z >> 31)) >> 11) * 2.0**-53


def random_feed(path):
    units = splitmix(500)
    data = [
        {"img": f"random:{index}", "width": f"{200 + next(units) * 1800:.0f}",
         "height": f"{200 + next(units) * 2800:.0f}"}
        for index in range(500)
    ]
    with open(path, "w", encoding="utf-8") as file:
        json.dump({"data": data}, file)


def mixed_feed(path):
    units = splitmix(34)
    data = []
    for index in range(1000):
        width = 300 * (4000 / 300) ** next(units)
        aspect = 0.3 * 10 ** next(units)
        data.append({"img": f"mixed:{index}", "width": f"{width:.0f}",
                     "height": f"{width * aspect:.0f}"})
    with open(path, "w", encoding="utf-8") as file:
        json.dump({"data": data}, file)


def figures(falls, feed, arguments):
    runs = []
    for seed in range(1, 6):
        output = subprocess.run(
            [falls, "layout", "--feed", feed, "--seed", str(seed), "--quality", "--format",
             "json", *arguments], check=True, capture_output=True).stdout
        runs.append(json.loads(output))
    return runs


def main():
    falls = sys.argv[1]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    random_path = os.path.join(tempfile.mkdtemp(), "random-500.json")
    random_feed(random_path)
    mixed_path = os.path.join(os.path.dirname(random_path), "mixed-1000.json")
    mixed_feed(mixed_path)
    feeds = [
        ("mj-shop-1", os.path.join(root, "Tests/Fixtures/mj-shop-1.json")),
        ("xr-waterfall", os.path.join(root, "Tests/Fixtures/xr-waterfall.json")),
        ("500 random", random_path),
        ("1,000 mixed", mixed_path),
    ]
    strategies = [("seed", ["--align", "seed"]), ("spread", ["--align", "spread"]),
                  ("planned", ["--align", "planned"])]
    print("| figure (seeds 1–5) | " + " | ".join(
        f"{name} {strategy}" for name, _ in feeds for strategy, _ in strategies) + " |")
    print("|---|" + "---|" * (len(feeds) * len(strategies)))
    results = {
        (name, strategy): figures(falls, path, arguments)
        for name, path in feeds for strategy, arguments in strategies
    }
    flat = {
        (name, strategy): figures(falls, path, arguments + ["--flat-end"])
        for name, path in feeds for strategy, arguments in strategies
    }

    def row(label, cell):
        cells = [cell(results[(name, strategy)], flat[(name, strategy)])
                 for name, _ in feeds for strategy, _ in strategies]
        print(f"| {label} | " + " | ".join(cells) + " |")

    def mean(runs, key):
        return sum(run[key] for run in runs) / len(runs)

    row("maxDistortion (worst seed)",
        lambda runs, _: f"{max(run['maxDistortion'] for run in runs):.1%}")
    row("meanDistortion", lambda runs, _: f"{mean(runs, 'meanDistortion'):.1%}")
    row("correctedShare", lambda runs, _: f"{mean(runs, 'correctedShare'):.1%}")
    row("enlargedShare", lambda runs, _: f"{mean(runs, 'enlargedShare'):.1%}")
    row("raggedEnd", lambda runs, _: f"{mean(runs, 'raggedEnd'):.2f}")
    row("raggedEnd, --flat-end (per seed)",
        lambda _, ends: " ".join(f"{run['raggedEnd']:.2f}" for run in ends))
    row("seeds ≤ 0.05 with --flat-end",
        lambda _, ends: f"{sum(run['raggedEnd'] <= 0.05 for run in ends)} of 5")
    row("maxDistortion, --flat-end (worst seed)",
        lambda _, ends: f"{max(run['maxDistortion'] for run in ends):.1%}")
    row("coverage", lambda runs, _: f"{mean(runs, 'coverage'):.1%}")


if __name__ == "__main__":
    main()
