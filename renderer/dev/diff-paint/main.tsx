// The page bench P20 measures: the review's diff component (ReviewDiff, with the app's styles) showing `diff.txt`,
// and the time of the frame that painted its first line in `window.__painted`.
import { createRoot } from 'react-dom/client';
import '../../src/styles.css';
import { ReviewDiff } from '../../src/components/ReviewDiff';
import { diffFiles } from '../../src/lib/review-files';

const params = new URLSearchParams(location.search);
const w = window as unknown as { __painted?: number };

void fetch(`./diff-${params.get('n') ?? '100'}.txt`)
  .then((r) => r.text())
  .then((text) => {
    const obs = new MutationObserver(() => {
      if (!document.querySelector('.review-code')) return;
      obs.disconnect();
      requestAnimationFrame(() => setTimeout(() => (w.__painted = performance.now()), 0));
    });
    obs.observe(document.body, { childList: true, subtree: true });
    createRoot(document.getElementById('root')!).render(
      <ReviewDiff
        files={diffFiles(text)}
        split={params.has('split')}
        threads={new Map()}
        renderThread={() => null}
        renderDraft={() => null}
        draft={null}
        onPick={() => {}}
        viewed={{}}
        onToggleViewed={() => {}}
        jump={null}
        maxHeight={800}
      />,
    );
  });
