// @vitest-environment jsdom
// Tests for the transcript: virtualized (a long attempt keeps the DOM small), and a live one keeps following its end.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { Transcript } from './Transcript';
import { stubLayout } from '../test-helpers';

stubLayout();

afterEach(cleanup);

type Entry = Parameters<typeof Transcript>[0]['entries'][number];
const entries = (n: number): Entry[] =>
  Array.from({ length: n }, (_, i) =>
    i % 2 ? { kind: 'text', text: `entry ${i}` } : { kind: 'tool_use', text: '', name: 'bash', input: { command: `ls ${i}` } },
  );

describe('Transcript', () => {
  it('draws only the rows in view for 3,000 entries', () => {
    render(<Transcript entries={entries(3000)} />);
    const region = screen.getByRole('region', { name: 'transcript, 3,000 entries' });
    const rows = region.querySelectorAll('li.tx');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(100);
    expect(screen.getByText('ls 0')).toBeTruthy();
    expect(screen.getByText('entry 1')).toBeTruthy();
  });

  it('follows a live attempt to its newest entry, and stays put once the user scrolled up', () => {
    const { rerender } = render(<Transcript entries={entries(50)} live />);
    const region = screen.getByRole('region');
    // jsdom has no layout: give the viewport a size and a content height, as a browser would.
    let contentHeight = 3000;
    Object.defineProperty(region, 'clientHeight', { configurable: true, get: () => 500 });
    Object.defineProperty(region, 'scrollHeight', { configurable: true, get: () => contentHeight });
    contentHeight = 3030;
    rerender(<Transcript entries={entries(51)} live />);
    expect(region.scrollTop).toBe(3030);
    region.scrollTop = 1000;
    region.dispatchEvent(new Event('scroll'));
    contentHeight = 3060;
    rerender(<Transcript entries={entries(52)} live />);
    expect(region.scrollTop).toBe(1000);
  });

  it('says what an empty transcript means', () => {
    render(<Transcript entries={[]} live />);
    expect(screen.getByText('Waiting for the agent…')).toBeTruthy();
  });
});
