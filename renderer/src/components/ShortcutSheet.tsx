// "?": every key the app answers to, read from the one shortcut table (lib/shortcuts.ts) the menu's keys come from.
import { shortcutRows } from '../lib/shortcuts';
import { useUi } from '../stores/ui';
import { Modal } from './Modal';

export function ShortcutSheet({ onClose }: { onClose: () => void }) {
  const host = useUi((s) => s.appInfo?.host ?? 'electron');
  const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose}>
      <table className="shortcut-sheet">
        <tbody>
          {shortcutRows(host, mac).map((r) => (
            <tr key={r.keys}>
              <td>
                <kbd>{r.keys}</kbd>
              </td>
              <td>{r.does}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small-text">Retry, Resume and Stop have no key: a stray key never starts or stops a run.</p>
    </Modal>
  );
}
