// The renderer's bundle: minified, and the entry chunk (every screen's first load) leaves recharts and d3 to the dashboard's chunk.
import { describe, expect, it } from 'vitest';
import { build, type Rollup } from 'vite';
import { rendererConfig } from '../electron.vite.config';

/** Entry chunk bound: 450 KB minified today (React, zod, the contract, every screen but the dashboard); 1.9 MB unminified before. */
const ENTRY_MAX_BYTES = 600 * 1024;

describe('renderer bundle', () => {
  it('keeps recharts and d3 out of the entry chunk, minified and under its size bound', async () => {
    // Vitest sets NODE_ENV=test, which vite would bake in (React's development build); build as `npm run build` does.
    const env = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    const out = (await build({ ...rendererConfig, configFile: false, logLevel: 'silent', build: { ...rendererConfig.build, write: false } }).finally(() => {
      process.env.NODE_ENV = env;
    })) as Rollup.RollupOutput;
    const chunks = out.output.filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
    const entry = chunks.find((c) => c.isEntry);
    expect(entry).toBeDefined();
    const inEntry = entry!.moduleIds.filter((id) => /node_modules\/(recharts|d3-[a-z-]+|victory-vendor|lowlight|highlight\.js)\//.test(id));
    expect(inEntry).toEqual([]);
    expect(entry!.moduleIds.some((id) => id.endsWith('DashboardScreen.tsx'))).toBe(false);
    // The dashboard's chunk is the one that brings the charts.
    const dashboard = chunks.find((c) => c.moduleIds.some((id) => id.endsWith('DashboardScreen.tsx')));
    expect(dashboard?.moduleIds.some((id) => id.includes('node_modules/recharts/'))).toBe(true);
    expect(entry!.dynamicImports).toContain(dashboard!.fileName);
    const bytes = Buffer.byteLength(entry!.code);
    expect(bytes).toBeLessThan(ENTRY_MAX_BYTES);
    // Minified: no line of the entry holds only indentation and a statement, as unminified output does by the thousand.
    expect(entry!.code.split('\n').length).toBeLessThan(100);
  }, 120_000);
});
