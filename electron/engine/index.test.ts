// The front door hands the hosts an engine without its store: they reach it through the engine's methods.
import { describe, expect, it } from 'vitest';
import type { Engine } from './index';
import type { Engine as EngineWithStore } from './engine';

describe("the engine's front door", () => {
  it('gives the hosts no store, and every other method of the engine', () => {
    // Type-level: this file does not compile if the hosts' Engine has a store, or lacks a method the engine has.
    const store: 'store' extends keyof Engine ? 'reachable' : 'private' = 'private';
    const methods: Exclude<keyof EngineWithStore, keyof Engine> = 'store';
    expect([store, methods]).toEqual(['private', 'store']);
  });
});
