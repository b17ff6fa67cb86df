// Fixture: a C library built with CMake and tested with Unity (ThrowTheSwitch) through ctest. Unity is not on any
// registry this project uses and none of its code is in this repository: it is copied from a checkout of it named by
// RATCHET_UNITY_DIR when the fixture is built (the test is skipped, saying so, without one).
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { replace, say, turn } from '../fixture-project';
import { bash, commitAll, confirmBug, developerEnv, gitProject, has, run, Unavailable, type RealProject } from './real-project';

const CMAKELISTS = `cmake_minimum_required(VERSION 3.16)
project(ringbuf C)
enable_testing()

add_library(unity STATIC vendor/unity/src/unity.c)
target_include_directories(unity PUBLIC vendor/unity/src)

add_library(ringbuf src/ringbuf.c)
target_include_directories(ringbuf PUBLIC src)

add_executable(test_ringbuf test/test_ringbuf.c)
target_link_libraries(test_ringbuf ringbuf unity)
add_test(NAME test_ringbuf COMMAND test_ringbuf)
`;

const HEADER = `#ifndef RINGBUF_H
#define RINGBUF_H
#define RINGBUF_CAP 4

typedef struct {
  int items[RINGBUF_CAP];
  int head;
  int count;
} ringbuf;

void rb_init(ringbuf *rb);
/** Adds v at the back; returns 0 when full. */
int rb_push(ringbuf *rb, int v);
/** Takes the front item into *v; returns 0 when empty. */
int rb_pop(ringbuf *rb, int *v);
#endif
`;

const SOURCE = `#include "ringbuf.h"

void rb_init(ringbuf *rb) {
  rb->head = 0;
  rb->count = 0;
}

int rb_push(ringbuf *rb, int v) {
  if (rb->count == RINGBUF_CAP) return 0;
  rb->items[(rb->head + rb->count) % RINGBUF_CAP] = v;
  rb->count++;
  return 1;
}

int rb_pop(ringbuf *rb, int *v) {
  if (rb->count == 0) return 0;
  *v = rb->items[rb->head];
  rb->head = rb->head + 1;
  rb->count--;
  return 1;
}
`;

const TEST = `#include "unity.h"
#include "ringbuf.h"

static ringbuf rb;

void setUp(void) { rb_init(&rb); }
void tearDown(void) {}

static void test_pop_returns_items_in_order(void) {
  int v = 0;
  rb_push(&rb, 1);
  rb_push(&rb, 2);
  TEST_ASSERT_TRUE(rb_pop(&rb, &v));
  TEST_ASSERT_EQUAL_INT(1, v);
  TEST_ASSERT_TRUE(rb_pop(&rb, &v));
  TEST_ASSERT_EQUAL_INT(2, v);
}

static void test_push_refuses_when_full(void) {
  for (int i = 0; i < RINGBUF_CAP; i++) TEST_ASSERT_TRUE(rb_push(&rb, i));
  TEST_ASSERT_FALSE(rb_push(&rb, 99));
}

static void test_wraps_around_the_end(void) {
  int v = 0;
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < RINGBUF_CAP; i++) rb_push(&rb, round * 10 + i);
    for (int i = 0; i < RINGBUF_CAP; i++) {
      TEST_ASSERT_TRUE(rb_pop(&rb, &v));
      TEST_ASSERT_EQUAL_INT(round * 10 + i, v);
    }
  }
}

int main(void) {
  UNITY_BEGIN();
  RUN_TEST(test_pop_returns_items_in_order);
  RUN_TEST(test_push_refuses_when_full);
  RUN_TEST(test_wraps_around_the_end);
  return UNITY_END();
}
`;

const README = `# ringbuf

A fixed-size ring buffer of ints.

## Development

    cmake -S . -B build
    cmake --build build && ctest --test-dir build --output-on-failure
`;

/** Unity's checkout for this machine, or why there is none. */
export function unityDir(): string {
  const dir = process.env.RATCHET_UNITY_DIR;
  if (!dir) throw new Unavailable('RATCHET_UNITY_DIR is not set (a checkout of ThrowTheSwitch/Unity; none of its code is in this repository)');
  if (!existsSync(join(dir, 'src', 'unity.c'))) throw new Unavailable(`RATCHET_UNITY_DIR (${dir}) holds no src/unity.c`);
  return dir;
}

/** The library as its developer has it: Unity vendored, build/ configured and built (gitignored). */
export function makeCUnity(): RealProject {
  const unity = unityDir();
  if (!has('cmake') || !has('cc')) throw new Unavailable('cmake or a C compiler is not installed');
  const repo = gitProject('c-unity', {
    'CMakeLists.txt': CMAKELISTS,
    'README.md': README,
    '.gitignore': 'build/\n',
    'src/ringbuf.h': HEADER,
    'src/ringbuf.c': SOURCE,
    'test/test_ringbuf.c': TEST,
  });
  cpSync(join(unity, 'src'), join(repo, 'vendor', 'unity', 'src'), { recursive: true });
  commitAll(repo, 'ringbuf 0.1');
  const shellEnv = developerEnv();
  run(repo, 'cmake', ['-S', '.', '-B', 'build'], { env: shellEnv });
  const failingTest = 'test_wraps_around_the_end';
  confirmBug(repo, 'cmake --build build && ctest --test-dir build --output-on-failure', shellEnv, failingTest);
  return {
    ecosystem: 'c',
    repo,
    testCommand: 'cmake --build build && ctest --test-dir build --output-on-failure',
    shellEnv,
    step: {
      title: 'rb_pop wraps around the end of the buffer',
      prompt: 'After RINGBUF_CAP pushes and pops, rb_pop reads past the end of items. Fix rb_pop in src/ringbuf.c; the tests are in test/test_ringbuf.c.',
    },
    failingTest,
    attempts: [
      [
        bash('cat src/ringbuf.c'),
        // Wrong: wraps the head but takes the item after moving it, so items come out one late.
        turn(
          replace(
            'src/ringbuf.c',
            '  *v = rb->items[rb->head];\n  rb->head = rb->head + 1;',
            '  rb->head = (rb->head + 1) % RINGBUF_CAP;\n  *v = rb->items[rb->head];',
          ),
        ),
        say('rb_pop now wraps the head around the end.'),
      ],
      [
        turn(
          replace(
            'src/ringbuf.c',
            '  rb->head = (rb->head + 1) % RINGBUF_CAP;\n  *v = rb->items[rb->head];',
            '  *v = rb->items[rb->head];\n  rb->head = (rb->head + 1) % RINGBUF_CAP;',
          ),
        ),
        say('rb_pop takes the front item, then wraps the head around the end.'),
      ],
    ],
    attempt1FailingTest: 'test_pop_returns_items_in_order',
    fixFiles: ['src/ringbuf.c'],
    untrackedDirs: ['build'],
  };
}
