// The weekly report: stats.report's Markdown, to read, copy or save as a file.
import { useEffect, useState } from 'react';
import { useStats, type Days } from '../stores/stats';
import { Modal } from '../components/Modal';
import { ErrorState, Loading } from '../components/States';

export function ReportDialog({ days, onClose }: { days: Days; onClose: () => void }) {
  const slot = useStats((s) => s.report[days]);
  const load = useStats((s) => s.loadReport);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    void load(days);
  }, [days, load]);

  const copy = async () => {
    if (!slot.data) return;
    await navigator.clipboard?.writeText(slot.data);
    setCopied(true);
  };
  // A download works in the browser and in Electron alike, without a save dialog in the contract.
  const save = () => {
    if (!slot.data) return;
    const url = URL.createObjectURL(new Blob([slot.data], { type: 'text/markdown' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `ratchet-report-${new Date().toISOString().slice(0, 10)}.md`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <Modal title={days === 7 ? 'Weekly report' : `Report, last ${days} days`} onClose={onClose} wide footer={(
      <>
        <button type="button" onClick={() => void copy()} disabled={!slot.data}>{copied ? 'Copied' : 'Copy Markdown'}</button>
        <button type="button" onClick={save} disabled={!slot.data}>Save as .md</button>
        <button type="button" className="primary" onClick={onClose}>Close</button>
      </>
    )}>
      {slot.status === 'loading' && <Loading label="Writing the report…" />}
      {slot.status === 'error' && <ErrorState message={slot.error ?? ''} onRetry={() => void load(days)} />}
      {slot.data && <textarea className="mono report-text" readOnly value={slot.data} aria-label="report Markdown" rows={20} />}
    </Modal>
  );
}
