#!/usr/bin/env python3
# Truth of the third held-out batch (recorded after every earlier fix), written by reading the outputs and sources
# before any parser ran on them.
import json, os

OUT = os.path.join(os.path.dirname(__file__), '../../electron/engine/gates/corpus')

def t(name, expected=None, actual=None, file=None, line=None):
    return {'name': name, 'expected': expected, 'actual': actual, 'file': file, 'line': line}

def c(file, line, code=None):
    return {'kind': 'compile', 'file': file, 'line': line, 'code': code}

def write(case, cls, failures, note=None):
    doc = {'class': cls, 'failures': failures, 'heldOut': 3}
    if note: doc['note'] = note
    with open(os.path.join(OUT, case + '.truth.json'), 'w') as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
        f.write('\n')

CF = 'tests/test_config.py'
write('held3/pytest', 'test_failure', [
    t('tests/test_config.py::test_port', None, None, CF, 5),
    t('tests/test_config.py::test_host', None, None, CF, 9),
    t('tests/test_config.py::test_merge', "{'a': 1, 'b': 3}", "{'a': 1, 'b': 2}", CF, 13),
], 'test_port asserts inequality (no expected/actual pair); test_host raises KeyError in config.py:5, the test line is 9')
U = 'tests/test_users.py'
write('held3/unittest', 'test_failure', [
    t('tests.test_users.UsersTest.test_find_missing', None, None, U, 11),
    t('tests.test_users.UsersTest.test_names', "['b', 'a']", "['a', 'b']", U, 8),
], '"{} is not None" is a sentence, not a pair of values')
N = '__tests__/notify.test.js'
write('held3/jest', 'test_failure', [
    t('sends a welcome', '"a@example.com", "Welcome, Ann"', '"a@example.com", "Welcome Ann"', N, 6),
    t('parses settings', None, None, N, 10),
    t('rejects bad json', 'TypeError', 'SyntaxError', N, 14),
])
P = 'test/path.test.js'
write('held3/vitest', 'test_failure', [
    t('splits a path', '2', '3', P, 5),
    t('finds the extension', "'tar.gz'", "'.gz'", P, 9),
])
R = 'test/range.test.js'
write('held3/mocha', 'test_failure', [t('range > starts at zero', None, None, R, 6), t('range > reads the last item', None, None, R, 9)],
      'a multi-line array diff; a RangeError thrown in range.js:2, the test line is 9')
write('held3/mocha-tap', 'test_failure', [t('range starts at zero', None, None, R, 6), t('range reads the last item', None, None, R, 9)])
V = 'test/version.test.js'
write('held3/node-spec', 'test_failure', [
    t('bumps the patch', "'1.2.4'", "'1.2.3'", V, 6),
    t('looks like semver', '/^\\d+\\.\\d+\\.\\d+$/', "'1.2.undefined'", V, 10),
])
write('held3/go', 'test_failure', [t('example.com/stack > TestLIFO', '2', '1', 'stack_test.go', 16)],
      't.Helper(): go reports the caller line (16), not the helper')
L = 'src/lib.rs'
write('held3/cargo', 'test_failure', [
    t('tests::finds', None, None, L, 26),
    t('tests::midpoint', 'Point { x: 1, y: 2 }', 'Point { x: 1, y: 0 }', L, 21),
])
write('held3/gpp', 'compilation_error', [c('shape.cpp', 11), c('shape.cpp', 16), c('shape.cpp', 17)])
print('held3 ok')
