#!/usr/bin/env python3
# Truth of the held-out cases, written by reading their recorded outputs and sources before any parser ran on them.
import json, os
OUT = os.path.join(os.path.dirname(__file__), '../../electron/engine/gates/corpus')

def t(name, expected=None, actual=None, file=None, line=None):
    return {'name': name, 'expected': expected, 'actual': actual, 'file': file, 'line': line}

def c(file, line, code=None):
    return {'kind': 'compile', 'file': file, 'line': line, 'code': code}

def write(case, cls, failures, note=None):
    doc = {'class': cls, 'failures': failures, 'heldOut': 1}
    if note: doc['note'] = note
    with open(os.path.join(OUT, case + '.truth.json'), 'w') as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
        f.write('\n')

INV = 'tests/test_inventory.py'
pytest_class = [
    t('tests/test_inventory.py::TestInventory::test_total', '5', '4', INV, 21),
    t('tests/test_inventory.py::TestInventory::test_price', '0.3', '0.30000000000000004', INV, 24),
    # pytest itself abbreviates both dicts in the assertion line; that is what it printed.
    t('tests/test_inventory.py::TestInventory::test_report', "{'count': 2, ...e', 'banana']}", "{'count': 2, ...ple', 'pear']}", INV, 27),
    t('tests/test_inventory.py::test_known[kiwi]', None, None, INV, 35),
    # An error in a fixture at setup: the failing line is the fixture's raise in the test file.
    t('tests/test_inventory.py::TestInventory::test_with_broken', None, None, INV, 16),
]
write('held/pytest-class', 'test_failure', pytest_class)
write('held/pytest-class-short-q', 'test_failure', pytest_class, '-q --tb=short --color=yes')
write('held/pytest-import-name', 'compilation_error', [c('tests/test_shop.py', 1, 'ImportError')],
      "the test imports refund from the project's own shop.py, which does not define it yet")

TX = 'tests/test_text.py'
write('held/unittest', 'test_failure', [
    t('tests.test_text.SlugTest.test_slug', "'hello-world'", "'hello_world'", TX, 8),
    t('tests.test_text.SlugTest.test_words_contains', None, None, TX, 11),
    t('tests.test_text.WordsTest.test_count', '4', '3', TX, 16),
])

Q = 'test/queue.spec.js'
write('held/jest-nested', 'test_failure', [
    t('Queue › order › pops in FIFO order', '1', '2', Q, 9),
    t('Queue › has a size', '> 1', '1', Q, 16),
    t('load › names the item', None, None, Q, 22),
    t('load › contains the id', '"8"', '"item7"', Q, 27),
])
write('held/jest-nested-json', 'test_failure', [
    t('Queue › order › pops in FIFO order', '1', '2', Q, 9),
    t('Queue › has a size', '> 1', '1', Q, 16),
    t('load › names the item', '{"id": 3, "name": "item-3"}', '{"id": 3, "name": "item3"}', Q, 22),
    t('load › contains the id', '"8"', '"item7"', Q, 27),
], 'the JSON report keeps both objects of toEqual in failureDetails')

M = 'tests/money.spec.ts'
vitest_held = [
    t('cents > converts dollars', '125', '13', M, 6),
    t('split > splits evenly', '[ 4, 3, 3 ]', '[ 3, 3, 3 ]', M, 12),
    t('split > refuses zero ways', 'null', 'undefined', M, 16),
]
write('held/vitest-junit', 'test_failure', vitest_held, 'with the JUnit report')
write('held/vitest-color', 'test_failure', vitest_held)

T = 'test/temp.test.js'
write('held/mocha', 'test_failure', [
    t('temperature > parses a reading', None, None, T, 14),
    t('temperature > toF > converts freezing', '32', '31', T, 7),
    t('temperature > toF > converts boiling', '212', '211', T, 10),
], 'parses a reading is a multi-line object diff')
write('held/mocha-tap', 'test_failure', [
    t('temperature parses a reading', None, None, T, 14),
    t('temperature toF converts freezing', '32', '31', T, 7),
    t('temperature toF converts boiling', '212', '211', T, 10),
])
node_held = [
    t('temperature > toF > converts freezing', '32', '31', T, 8),
    t('temperature > toF > converts body heat', 'true', 'false', T, 11),
]
write('held/node-spec', 'test_failure', node_held, 'node 20 prints the errors only under "failing tests:" here')
write('held/node-tap', 'test_failure', [t('converts freezing', '32', '31', T, 8), t('converts body heat', 'true', 'false', T, 11)])

go_held = [t('example.com/text > TestTitle/empty', None, None, 'text_test.go', 12)]
note = 'the panic (in text.go:5) ends the test binary: TestCount never runs; the test line is the TestTitle.func1 frame'
write('held/go-verbose', 'test_failure', go_held, note)
write('held/go-json', 'test_failure', go_held, note)
write('held/crlf-go-verbose', 'test_failure', go_held, 'held/go-verbose.txt with its line endings converted to CRLF')

W = 'tests/words.rs'
write('held/cargo', 'test_failure', [
    t('rejects_negative', None, None, W, 10),
    t('not_empty', None, None, W, 17),
    t('shouts', '"HI!"', '"HI"', W, 5),
])
write('held/tsc-pretty', 'compilation_error', [
    c('src/main.ts', 3, 'TS2353'), c('src/main.ts', 4, 'TS2532'), c('src/main.ts', 4, 'TS2345'), c('src/user.ts', 4, 'TS2367'),
])
write('held/gcc', 'compilation_error', [c('util.c', 5), c('main.c', 5), c('main.c', 5), c('main.c', 7)],
      'errors only: util.c:5:26, main.c:5:12, main.c:5:18, main.c:7:12 (warnings and notes are not errors)')
write('held/eslint', 'compilation_error', [
    c('lib/server.js', 2, 'no-unused-vars'), c('lib/server.js', 3, 'no-undef'), c('lib/server.js', 3, 'no-undef'), c('lib/util.js', 2, 'eqeqeq'),
])
print('held ok')
