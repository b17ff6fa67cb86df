import { describe, expect, it } from 'vitest';
import { keysOf, subtables, tomlOutline } from './toml-outline';

describe('tomlOutline (tables and keys, not values)', () => {
  it('never takes the lines of a multi-line array, inline table or string for keys', () => {
    const o = tomlOutline(
      [
        '[project]',
        'name = "a"',
        'dependencies = [',
        '  "b = 1",',
        '  "c>=2",',
        ']',
        'description = """',
        'x = not a key',
        '"""',
        'urls = { home = "h",',
        '  docs = "d" }',
        'version = "1"',
        '[project.optional-dependencies]',
        'test = ["pytest"]  # comment',
        '"dev" = []',
        '[tool.poetry.group.test.dependencies]',
        'pytest = "^8"',
        '[target."cfg(unix)".dependencies]',
        'libc = "0.2"',
      ].join('\n'),
    );
    expect(keysOf(o, 'project')).toEqual(['name', 'dependencies', 'description', 'urls', 'version']);
    expect(keysOf(o, 'project.optional-dependencies')).toEqual(['test', 'dev']);
    expect(subtables(o, 'tool.poetry.group')).toEqual(['test']);
    expect(keysOf(o, 'target.cfg(unix).dependencies')).toEqual(['libc']);
    expect(keysOf(o, 'absent')).toEqual([]);
  });
});
