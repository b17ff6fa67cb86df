// Detection for Cargo, Go modules, Maven, Gradle, CMake with tests and a Makefile's test target: their dependency fetch or configure as setup, their test command as the gate.
import { firstOf, has, type EcosystemProposal, type ProjectSnapshot } from './proposal';
import { hasTable, keysOf, tomlOutline } from './toml-outline';

export function detectRust(s: ProjectSnapshot): EcosystemProposal | null {
  if (!has(s, 'Cargo.toml')) return null;
  const outline = tomlOutline(s.contents['Cargo.toml'] ?? '');
  const workspace = hasTable(outline, 'workspace');
  const depTables = [...outline.tables.keys()].filter((t) => /(^|\.)(dev-|build-)?dependencies(\.|$)/.test(t));
  const hasDeps = workspace || depTables.some((t) => t.split('.').length > (t.startsWith('target.') ? 3 : 1) || keysOf(outline, t).length > 0);
  const locked = has(s, 'Cargo.lock');
  const notes: string[] = [];
  const setup = hasDeps
    ? [
        {
          run: `cargo fetch${locked ? ' --locked' : ''}`,
          why: `Cargo.toml names dependencies: fetched once with the registry reachable, so the gate builds offline${locked ? ' (the versions Cargo.lock pins)' : ''}`,
        },
      ]
    : [];
  if (!hasDeps) notes.push('Cargo.toml names no dependencies: no setup is needed.');
  return {
    id: 'rust',
    label: 'Cargo',
    evidence: ['Cargo.toml', ...(locked ? ['Cargo.lock'] : [])],
    setup,
    network: hasDeps ? [{ entry: 'registry:cargo', why: 'cargo fetches crates from the registry your cargo configuration names' }] : [],
    gates: [
      {
        name: 'test',
        run: workspace && hasTable(outline, 'package') ? 'cargo test --workspace' : 'cargo test',
        why: workspace ? "Cargo.toml [workspace]: every member's tests" : 'Cargo.toml',
      },
    ],
    notes,
  };
}

export function detectGo(s: ProjectSnapshot): EcosystemProposal | null {
  if (!has(s, 'go.mod')) return null;
  const requires = /^\s*require\b/m.test(s.contents['go.mod'] ?? '');
  const notes = has(s, 'go.work') ? ['A go.work is committed: the gate builds the modules it names.'] : [];
  return {
    id: 'go',
    label: 'Go modules',
    evidence: ['go.mod', ...(has(s, 'go.sum') ? ['go.sum'] : [])],
    setup: requires
      ? [{ run: 'go mod download', why: 'go.mod requires modules: downloaded once with the module proxy reachable, so the gate builds offline' }]
      : [],
    network: requires ? [{ entry: 'registry:go', why: 'go downloads modules through the proxy `go env GOPROXY` names' }] : [],
    gates: [{ name: 'test', run: 'go test ./...', why: "go.mod: every package's tests" }],
    notes,
  };
}

export function detectMaven(s: ProjectSnapshot): EcosystemProposal | null {
  if (!has(s, 'pom.xml')) return null;
  const mvn = has(s, 'mvnw') ? './mvnw' : 'mvn';
  return {
    id: 'maven',
    label: 'Maven',
    evidence: ['pom.xml', ...(has(s, 'mvnw') ? ['mvnw'] : [])],
    setup: [{ run: `${mvn} -B -q dependency:go-offline`, why: 'pom.xml: dependencies and plugins downloaded once with the repository reachable' }],
    network: [{ entry: 'registry:maven', why: 'Maven downloads from the repository your Maven settings name' }],
    gates: [{ name: 'test', run: `${mvn} -B -q test`, why: 'pom.xml' }],
    notes: [
      "If a gate stops on a plugin Maven could not download offline (surefire's test providers are fetched when tests first run), add that step to setup, e.g. `mvn -B -q test -DskipTests=false -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false`.",
    ],
  };
}

/** The host Gradle's wrapper downloads its distribution from, as the repository's own wrapper properties name it. */
export function gradleDistributionHost(properties: string | undefined): string | null {
  const url = /^\s*distributionUrl\s*=\s*(\S+)/m.exec(properties ?? '')?.[1]?.replace(/\\:/g, ':');
  if (!url) return null;
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}

export function detectGradle(s: ProjectSnapshot): EcosystemProposal | null {
  const build = firstOf(s, ['build.gradle.kts', 'build.gradle', 'settings.gradle.kts', 'settings.gradle']);
  if (!build) return null;
  const gradle = has(s, 'gradlew') ? './gradlew' : 'gradle';
  const host = has(s, 'gradlew') ? gradleDistributionHost(s.contents['gradle/wrapper/gradle-wrapper.properties']) : null;
  return {
    id: 'gradle',
    label: 'Gradle',
    evidence: [build, ...(has(s, 'gradlew') ? ['gradlew'] : [])],
    setup: [
      {
        run: `${gradle} --no-daemon testClasses`,
        why: `${build}: compiles the code and its tests once with the repositories reachable, so the gate runs offline`,
      },
    ],
    network: [
      { entry: 'registry:maven', why: 'Gradle resolves dependencies from the Maven repository your configuration names' },
      ...(host ? [{ entry: host, why: 'gradle/wrapper/gradle-wrapper.properties: where the wrapper downloads Gradle from' }] : []),
    ],
    gates: [{ name: 'test', run: `${gradle} --no-daemon test`, why: build }],
    notes: ['Gradle plugins resolved from a plugin portal need its host in setup.network.'],
  };
}

/** Targets a Makefile defines (`name:` at the start of a line, not a variable assignment `name := …`). */
export function makeTargets(text: string): string[] {
  const targets = new Set<string>();
  for (const m of text.matchAll(/^([A-Za-z0-9_.\-/ ]+?)\s*::?(?!=)/gm)) for (const t of (m[1] ?? '').split(/\s+/)) if (t && !t.startsWith('.')) targets.add(t);
  return [...targets];
}

/** The recipe lines of a Makefile target (the tab-indented lines after `target:`), joined; null when the target is not defined. */
export function makeRecipe(text: string, target: string): string | null {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => new RegExp(`^([A-Za-z0-9_.\\-/ ]*\\s)?${target}(\\s[A-Za-z0-9_.\\-/ ]*)?\\s*::?(?!=)`).test(l));
  if (at < 0) return null;
  const recipe: string[] = [];
  for (const l of lines.slice(at + 1)) {
    if (!l.startsWith('\t')) break;
    recipe.push(l.slice(1).trim());
  }
  return recipe.join('; ');
}

/**
 * Test runners a Makefile recipe may call for `make test` to be a gate: a legacy `test:` target that runs a demo
 * program (a CMake library's old Makefile) would pass with every unit test broken, so a target that calls none of
 * these is not proposed (issue 29: a run "succeeded" with a failing test committed).
 */
const TEST_RUNNER =
  /(^|[\s;&|(`])(ctest|pytest|py\.test|tox|nox|go test|cargo test|cargo nextest|node --test|(npm|pnpm|yarn|bun)( run)? test|npx (jest|vitest|mocha)|jest|vitest|mocha|prove|bats|rspec|rake test|phpunit|meson test|dotnet test|python3? -m (pytest|unittest)|mvn( -\S+)* test|gradle( -\S+)* test|\.\/gradlew( -\S+)* test)\b/;

export function detectMake(s: ProjectSnapshot): EcosystemProposal | null {
  const file = firstOf(s, ['GNUmakefile', 'Makefile', 'makefile']);
  if (!file) return null;
  const text = s.contents[file] ?? '';
  const target = ['test', 'check'].find((t) => makeTargets(text).includes(t));
  if (!target) return null;
  const recipe = makeRecipe(text, target) ?? '';
  if (!TEST_RUNNER.test(recipe)) {
    return {
      id: 'make',
      label: 'Makefile',
      evidence: [file],
      setup: [],
      network: [],
      gates: [],
      notes: [
        `${file} has a \`${target}\` target, but it runs no test runner Ratchet knows (\`${recipe.slice(0, 80) || 'nothing'}\`), so it is not proposed as a gate: a gate must run the tests.`,
      ],
    };
  }
  return {
    id: 'make',
    label: 'Makefile',
    evidence: [file],
    setup: [],
    network: [],
    gates: [{ name: 'test', run: `make ${target}`, why: `${file} has a \`${target}\` target that runs the tests (\`${recipe.slice(0, 80)}\`)` }],
    notes: [],
  };
}

/** The build folder init proposes for CMake: configured once by setup, built and tested by the gate. */
export const CMAKE_BUILD_DIR = 'build';

/** Folders `add_subdirectory(…)` names in a CMakeLists.txt that detection may read: plain relative paths, no variable, no `..`. */
export function cmakeSubdirectories(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^[ \t]*add_subdirectory\s*\(\s*"?([A-Za-z0-9_.\-/]+?)"?(?:\s[^)]*)?\)/gim)) {
    const dir = m[1]!.replace(/\/+$/, '');
    if (dir && !dir.split('/').some((part) => part === '..' || part === '.' || part === '') && !out.includes(dir)) out.push(dir);
  }
  return out.slice(0, 16);
}

// `#` comments are dropped so a commented-out add_test does not count.
const uncomment = (text: string): string => text.replace(/#.*$/gm, '');
const CMAKE_TESTING = /\b(enable_testing\s*\(|include\s*\(\s*CTest\s*\))/i;
const CMAKE_TEST = /\b(add_test|gtest_discover_tests|gtest_add_tests|catch_discover_tests|doctest_discover_tests)\s*\(/i;

/**
 * CMake with tests: the root CMakeLists.txt enables testing (enable_testing() or include(CTest), which ctest needs at
 * the build folder's top) and a test is added there or in a folder it adds (the snapshot holds those folders'
 * CMakeLists.txt). Setup configures the build folder once; the gate builds it (the agent changed the sources) and runs
 * ctest, which prints each failing test's output.
 */
export function detectCMake(s: ProjectSnapshot): EcosystemProposal | null {
  if (!has(s, 'CMakeLists.txt')) return null;
  const root = uncomment(s.contents['CMakeLists.txt'] ?? '');
  const subs = cmakeSubdirectories(root)
    .map((d) => `${d}/CMakeLists.txt`)
    .filter((f) => s.contents[f] !== undefined);
  const withTest = ['CMakeLists.txt', ...subs].filter((f) => CMAKE_TEST.test(uncomment(s.contents[f] ?? '')));
  if (!CMAKE_TESTING.test(root) || withTest.length === 0) {
    return {
      id: 'cmake',
      label: 'CMake',
      evidence: ['CMakeLists.txt'],
      setup: [],
      network: [],
      gates: [],
      notes: [
        CMAKE_TESTING.test(root)
          ? 'CMakeLists.txt enables testing but no add_test was found in it or the folders it adds: if ctest runs your tests, add the gate `test: cmake --build build && ctest --test-dir build --output-on-failure` and setup `cmake -S . -B build`.'
          : 'CMakeLists.txt does not call enable_testing() or include(CTest), so ctest would find no test: no CMake gate is proposed.',
      ],
    };
  }
  const fetches = /\b(FetchContent_Declare|ExternalProject_Add)\s*\(/i.test([root, ...subs.map((f) => s.contents[f] ?? '')].join('\n'));
  return {
    id: 'cmake',
    label: 'CMake',
    evidence: withTest[0] === 'CMakeLists.txt' ? ['CMakeLists.txt'] : ['CMakeLists.txt', withTest[0]!],
    setup: [{ run: `cmake -S . -B ${CMAKE_BUILD_DIR}`, why: 'CMakeLists.txt: the build folder is configured once when the worktree is made' }],
    network: [],
    gates: [
      {
        name: 'test',
        run: `cmake --build ${CMAKE_BUILD_DIR} && ctest --test-dir ${CMAKE_BUILD_DIR} --output-on-failure`,
        why: `${withTest[0]} adds tests (add_test), run by ctest: the build comes first so the tests run the agent's code`,
      },
    ],
    notes: fetches ? ['CMakeLists.txt fetches code at configure time (FetchContent/ExternalProject): add the hosts it downloads from to setup.network.'] : [],
  };
}
