#!/usr/bin/env python3
# Truth of the second held-out batch (recorded after the first batch's fixes), written by reading the outputs and
# sources before any parser ran on them.
import json, os

OUT = os.path.join(os.path.dirname(__file__), '../../electron/engine/gates/corpus')

def t(name, expected=None, actual=None, file=None, line=None):
    return {'name': name, 'expected': expected, 'actual': actual, 'file': file, 'line': line}

def c(file, line, code=None):
    return {'kind': 'compile', 'file': file, 'line': line, 'code': code}

def write(case, cls, failures, note=None):
    doc = {'class': cls, 'failures': failures, 'heldOut': 2}
    if note: doc['note'] = note
    with open(os.path.join(OUT, case + '.truth.json'), 'w') as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
        f.write('\n')

G = 'tests/unit/test_greet.py'
greet = [
    t('tests/unit/test_greet.py::TestGreeting::test_english', "'Hello Ann!'", "'Hello Ann.'", G, 8),
    t('tests/unit/test_greet.py::TestGreeting::test_other[fr-Bonjour Ann !]', "'Bonjour Ann !'", "'Bonjour Ann!'", G, 12),
    t('tests/unit/test_greet.py::TestGreeting::test_other[de-Hallo Ann!]', "'Hallo Ann!'", "'Hello Ann.'", G, 12),
    t('tests/unit/test_greet.py::test_lines', "'line 0\\nline 2'", "'line 0\\nline 1'", G, 16),
    t('tests/unit/test_greet.py::test_explicit_fail', None, None, G, 20),
]
write('held2/pytest-nested', 'test_failure', greet, '-rA --tb=short; a parametrized id with spaces')
write('held2/pytest-nested-junit', 'test_failure', greet, 'with the --junitxml report')

GEO = 'tests/test_geo.py'
write('held2/unittest', 'test_failure', [
    t('tests.test_geo.BrokenSetupTest.test_data', None, None, GEO, 19),
    t('tests.test_geo.DistTest.test_same', '0', '0.01', GEO, 14),
    t('tests.test_geo.DistTest.test_unit', '5.0', '5.01', GEO, 11),
], 'test_data errors in setUp (line 19 of the test file)')

S = 'spec/stats.test.js'
stats = [
    t('mean › mean of [1,2,3] is 2', '2', '1.5', S, 8),
    t('mean › mean of [4] is 4', '4', '2', S, 8),
    t('summary', None, None, S, 13),
]
write('held2/jest-each', 'test_failure', stats, 'summary is a multi-line object diff')
write('held2/jest-each-junit', 'test_failure', stats, 'with the jest-junit report')
write('held2/crlf-jest-each', 'test_failure', stats, 'held2/jest-each.txt with its line endings converted to CRLF')

SL = 'test/slug.test.js'
slug = [
    t('slug > slug(  Many   Spaces )', "'many-spaces'", "'many---spaces'", SL, 9),
    t('tags > keeps lower case', "'a'", "[ 'A', 'B' ]", SL, 15),
]
write('held2/vitest-each', 'test_failure', slug)
write('held2/vitest-each-json', 'test_failure', slug)

M = 'test/money.test.js'
money = [t('money > adds cents', '0.3', '0.31', M, 7), t('money > formats', "'$5.00'", "'$5'", M, 10)]
write('held2/node-subtests-spec', 'test_failure', money)
write('held2/node-subtests-tap', 'test_failure', [t('adds cents', '0.3', '0.31', M, 7), t('formats', "'$5.00'", "'$5'", M, 10)])

CL = 'test/clock.spec.js'
write('held2/mocha', 'test_failure', [
    t('clock > parses hh:mm', '90', '91', CL, 6),
    t('clock > resolves in time', "'early'", "'late'", CL, 11),
    t('clock > throws on garbage', None, None, CL, 15),
])

size = [t('example.com/tools/format > TestSize', '"2 KiB"', '"3 KiB"', 'format_test.go', 16)]
write('held2/go-two-packages', 'test_failure', size, 'TestSize reports two mismatches; the first is the truth; the parse package passes')
write('held2/go-two-packages-json', 'test_failure', size)

L = 'src/lib.rs'
write('held2/cargo', 'test_failure', [
    t('label_tests::hot', None, None, L, 35),
    t('convert_tests::freezing', '32.0', '31.0', L, 19),
    # assert_ne! prints left and right, but they are not an expected/actual pair.
    t('label_tests::mild_is_not_cold', None, None, L, 29),
])
write('held2/javac', 'compilation_error', [c('Order.java', 7)])
write('held2/tsc', 'compilation_error', [c('src/cart.ts', 4, 'TS2339'), c('src/cart.ts', 8, 'TS2322'), c('src/cart.ts', 8, 'TS2322')])
write('held2/eslint', 'compilation_error', [c('src/index.js', 2, 'no-var'), c('src/index.js', 2, 'no-undef'), c('src/index.js', 3, 'eqeqeq')],
      'the no-unused-vars warning is not an error')
write('held2/clang', 'compilation_error', [c('util.c', 5), c('main.c', 5), c('main.c', 7)])
print('held2 ok')
