// Screens loaded on demand (the dashboard and its charts): a loading state while the chunk arrives, and a retry when it cannot load.
import { Component, Suspense, lazy, useState, type ComponentType, type ReactNode } from 'react';
import { ErrorState, Loading } from './States';

class ChunkBoundary extends Component<{ onRetry: () => void; children: ReactNode }, { error: string | null }> {
  override state = { error: null as string | null };
  static getDerivedStateFromError(err: unknown) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <div className="screen">
        <ErrorState
          title="This screen could not be loaded"
          message={`${this.state.error} Check the connection to Ratchet, then try again.`}
          onRetry={this.props.onRetry}
        />
      </div>
    );
  }
}

/**
 * A lazily imported screen. A failed import (the host restarted with a new build, a dropped connection) is not cached:
 * "Try again" imports it afresh.
 */
export function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>, label: string): ComponentType<P> {
  const make = () => lazy(async () => ({ default: await load() }));
  return function LazyScreen(props: P) {
    const [attempt, setAttempt] = useState(() => ({ n: 0, Screen: make() }));
    const { Screen } = attempt;
    return (
      <ChunkBoundary key={attempt.n} onRetry={() => setAttempt((a) => ({ n: a.n + 1, Screen: make() }))}>
        <Suspense
          fallback={
            <div className="screen">
              <Loading label={label} />
            </div>
          }
        >
          <Screen {...props} />
        </Suspense>
      </ChunkBoundary>
    );
  };
}
