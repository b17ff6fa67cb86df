// Fixture: a Go module (two packages, no external modules) tested with `go test ./...`; a real bug in the median of an even count.
import { replace, say, turn } from '../fixture-project';
import { bash, commitAll, confirmBug, developerEnv, gitProject, has, Unavailable, type RealProject } from './real-project';

const GO_MOD = `module example.com/tally

go 1.19
`;

const STATS = `// Package stats summarises samples: mean, median and percentiles.
package stats

import (
	"math"
	"sort"
)

// Mean is the arithmetic mean of xs (NaN for none).
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// Median is the middle value of xs, or the mean of the two middle values for an even count (NaN for none).
// xs is not modified.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := sorted(xs)
	return s[len(s)/2]
}

// Percentile is the value below which p percent of xs fall, by the nearest-rank method (NaN for none).
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 || p < 0 || p > 100 {
		return math.NaN()
	}
	s := sorted(xs)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	if rank < 1 {
		rank = 1
	}
	return s[rank-1]
}

func sorted(xs []float64) []float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s
}
`;

const STATS_TEST = `package stats

import (
	"math"
	"testing"
)

func TestMean(t *testing.T) {
	if got := Mean([]float64{1, 2, 3, 4}); got != 2.5 {
		t.Errorf("Mean = %v, want 2.5", got)
	}
	if got := Mean(nil); !math.IsNaN(got) {
		t.Errorf("Mean(nil) = %v, want NaN", got)
	}
}

func TestMedianOddCount(t *testing.T) {
	if got := Median([]float64{3, 1, 2}); got != 2 {
		t.Errorf("Median = %v, want 2", got)
	}
}

func TestMedianEvenCount(t *testing.T) {
	if got := Median([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Errorf("Median = %v, want 2.5", got)
	}
}

func TestMedianLeavesInputAlone(t *testing.T) {
	xs := []float64{3, 1, 2}
	Median(xs)
	if xs[0] != 3 || xs[1] != 1 || xs[2] != 2 {
		t.Errorf("Median reordered its input: %v", xs)
	}
}

func TestPercentile(t *testing.T) {
	xs := []float64{15, 20, 35, 40, 50}
	for _, c := range []struct{ p, want float64 }{{5, 15}, {30, 20}, {40, 20}, {50, 35}, {100, 50}} {
		if got := Percentile(xs, c.p); got != c.want {
			t.Errorf("Percentile(%v) = %v, want %v", c.p, got, c.want)
		}
	}
}
`;

const MAIN = `// Command tally reads numbers, one per line, and prints their count, mean, median and 95th percentile.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"example.com/tally/stats"
)

func main() {
	var xs []float64
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if line == "" {
			continue
		}
		x, err := strconv.ParseFloat(line, 64)
		if err != nil {
			fmt.Fprintf(os.Stderr, "tally: %v\\n", err)
			os.Exit(1)
		}
		xs = append(xs, x)
	}
	fmt.Printf("n=%d mean=%g median=%g p95=%g\\n", len(xs), stats.Mean(xs), stats.Median(xs), stats.Percentile(xs, 95))
}
`;

const README = `# tally

Summarise numbers: \`tally < samples.txt\`.

## Development

    go test ./...
`;

/** Why this machine cannot build the Go fixture, else null. */
export function goUnavailable(): string | null {
  return has('go', 'version') ? null : 'go is not installed';
}

/** The module as its developer has it after `go test ./...` (the Go build cache warm in their home). */
export function makeGoModule(): RealProject {
  const why = goUnavailable();
  if (why) throw new Unavailable(why);
  const repo = gitProject('go', {
    'go.mod': GO_MOD,
    'README.md': README,
    'stats/stats.go': STATS,
    'stats/stats_test.go': STATS_TEST,
    'cmd/tally/main.go': MAIN,
  });
  commitAll(repo, 'tally: mean, median, percentile');
  const shellEnv = developerEnv();
  const failingTest = 'TestMedianEvenCount';
  confirmBug(repo, 'go test ./...', shellEnv, failingTest);
  return {
    ecosystem: 'go',
    repo,
    testCommand: 'go test ./...',
    shellEnv,
    step: {
      title: 'Median of an even count',
      prompt: 'stats.Median([]float64{4, 1, 3, 2}) returns 3; for an even count it must be the mean of the two middle values (2.5). Fix it in stats/stats.go.',
    },
    failingTest,
    attempts: [
      [
        bash("sed -n '/^func Median/,/^}/p' stats/stats.go"),
        // Wrong: averages the two middle values for every count, so an odd count is now wrong.
        turn(replace('stats/stats.go', '\treturn s[len(s)/2]\n', '\treturn (s[len(s)/2-1] + s[len(s)/2]) / 2\n')),
        say('Median now averages the two middle values.'),
      ],
      [
        turn(
          replace(
            'stats/stats.go',
            '\treturn (s[len(s)/2-1] + s[len(s)/2]) / 2\n',
            '\tif len(s)%2 == 0 {\n\t\treturn (s[len(s)/2-1] + s[len(s)/2]) / 2\n\t}\n\treturn s[len(s)/2]\n',
          ),
        ),
        say('Median averages the two middle values for an even count only.'),
      ],
    ],
    attempt1FailingTest: 'TestMedianOddCount',
    fixFiles: ['stats/stats.go'],
    untrackedDirs: [],
  };
}
