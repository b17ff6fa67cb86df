// The weekly report: stats.report's Markdown rendered as a document, with its source one tab away, to copy or save as a .md file.
import { useEffect, useMemo, useState } from 'react';
import { useStats, type Days } from '../stores/stats';
import { Modal } from '../components/Modal';
import { ErrorState, Loading } from '../components/States';
import { markdownToHtml } from '../lib/markdown';

/** The file name a saved report gets: the period and the day it was written. */
export function reportFileName(days: Days, now: Date = new Date()): string {
  const d = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  return `ratchet-report-${days}-days-${d}.md`;
}

/**
 * Saves text as a file through a download: the browser host offers it as a download, and Electron, which gives
 * downloads no path by default, asks where to save it with its own Save dialog.
 */
export function downloadText(text: string, fileName: string, type = 'text/markdown'): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ReportDialog({ days, onClose }: { days: Days; onClose: () => void }) {
  const slot = useStats((s) => s.report[days]);
  const load = useStats((s) => s.loadReport);
  const [copied, setCopied] = useState(false);
  const [view, setView] = useState<'document' | 'markdown'>('document');
  useEffect(() => {
    void load(days);
  }, [days, load]);
  const html = useMemo(() => (slot.data ? markdownToHtml(slot.data) : ''), [slot.data]);

  const copy = async () => {
    if (!slot.data) return;
    await navigator.clipboard?.writeText(slot.data);
    setCopied(true);
  };
  const save = () => {
    if (slot.data) downloadText(slot.data, reportFileName(days));
  };

  return (
    <Modal
      title={days === 7 ? 'Weekly report' : `Report, last ${days} days`}
      onClose={onClose}
      wide
      footer={
        <>
          <div className="segmented report-view" role="group" aria-label="show the report as">
            <button type="button" aria-pressed={view === 'document'} className={view === 'document' ? 'active' : ''} onClick={() => setView('document')}>
              Document
            </button>
            <button type="button" aria-pressed={view === 'markdown'} className={view === 'markdown' ? 'active' : ''} onClick={() => setView('markdown')}>
              Markdown
            </button>
          </div>
          <button type="button" onClick={() => void copy()} disabled={!slot.data}>
            {copied ? 'Copied' : 'Copy Markdown'}
          </button>
          <button type="button" onClick={save} disabled={!slot.data}>
            Save as Markdown…
          </button>
          <button type="button" className="primary" onClick={onClose}>
            Close
          </button>
        </>
      }
    >
      {slot.status === 'loading' && !slot.data && <Loading label="Writing the report…" />}
      {slot.status === 'error' && <ErrorState message={slot.error ?? ''} onRetry={() => void load(days)} />}
      {slot.data && view === 'document' && (
        // Sanitised by markdownToHtml (DOMPurify): the Markdown is the engine's, its text may quote task titles.
        <article className="report-doc" aria-label="report" dangerouslySetInnerHTML={{ __html: html }} />
      )}
      {slot.data && view === 'markdown' && <textarea className="mono report-text" readOnly value={slot.data} aria-label="report Markdown" rows={20} />}
    </Modal>
  );
}
