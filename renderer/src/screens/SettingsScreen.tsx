// Settings: the API key (write-only), default model, pricing table, budgets, retry preset, notifications, worktree folder.
import { useEffect, useState } from 'react';
import type { Settings } from '../../../shared/contract';
import { useSettings } from '../stores/settings';
import { ErrorState, InlineError, Loading } from '../components/States';
import { PresetOptions } from '../components/PresetOptions';
import { PricingTable, pricingRows, type PriceRow } from './PricingTable';
import { NotifySettingsSection, notifyFields, notifyValue } from './NotifySettings';
import { checkSettings, PRICE_COLUMNS, priceKey, type FieldErrors } from './settings-form';
import { TeamSettings } from './TeamSettings';
import { FormNotices, SAVED_NOTE_MS, SecretForm } from '../components/SecretForm';
import { ScheduleSettings } from './ScheduleSettings';
import { GithubSettings } from './GithubSettings';
import { appWords } from '../lib/app-words';

const KEY_SOURCE: Record<Settings['apiKeySource'], string> = {
  safe_storage: 'Kept encrypted by the operating system’s keychain (Electron safeStorage), never in plain text.',
  environment: 'Read from ANTHROPIC_API_KEY in the environment of the headless host; it cannot be changed from here.',
  session: 'Kept in the browser host’s memory until it stops (a browser host has no keychain); set ANTHROPIC_API_KEY in its environment to keep it.',
  none: 'No key is set. Runs with the Anthropic agent will fail until one is.',
};

export function SettingsScreen() {
  const status = useSettings((s) => s.status);
  const settings = useSettings((s) => s.settings);
  const error = useSettings((s) => s.error);
  const load = useSettings((s) => s.load);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  useEffect(() => {
    if (status === 'idle') void load();
  }, [status, load]);
  useEffect(() => {
    if (savedAt === null) return;
    const t = setTimeout(() => setSavedAt(null), SAVED_NOTE_MS);
    return () => clearTimeout(t);
  }, [savedAt]);
  if (!settings) {
    return (
      <div className="screen">
        <h1>Settings</h1>
        {status === 'error' ? <ErrorState message={error ?? ''} onRetry={() => void load()} /> : <Loading label="Loading settings…" />}
      </div>
    );
  }
  return (
    <div className="screen settings">
      <h1>Settings</h1>
      {/* The sections that save themselves first (the key, GitHub, team, schedules), then the one form whose Save ends
          the page: no section sits below a Save it does not belong to (issue 34 item 8). */}
      <ApiKey settings={settings} />
      <GithubSettings />
      <TeamSettings />
      <ScheduleSettings />
      {/* Remounted with what the engine answered after a save; the confirmation lives here so it outlasts that. */}
      <SettingsForm
        key={JSON.stringify(settings)}
        settings={settings}
        saved={savedAt !== null}
        onSaved={() => setSavedAt(Date.now())}
        onNotSaved={() => setSavedAt(null)}
      />
    </div>
  );
}

function ApiKey({ settings }: { settings: Settings }) {
  const setApiKey = useSettings((s) => s.setApiKey);
  const saving = useSettings((s) => s.saving);
  const keyError = useSettings((s) => s.keyError);
  const [saved, setSaved] = useState<string | null>(null);
  const fromEnv = settings.apiKeySource === 'environment';
  const submit = async (value: string | null) => {
    setSaved(null);
    if (!(await setApiKey(value))) return false;
    setSaved(value ? 'Key saved.' : 'Key removed.');
    return true;
  };
  return (
    <section className="card settings-section" aria-labelledby="h-key">
      <h2 id="h-key">Anthropic API key</h2>
      <p className="small-text">
        <span className={`badge tone-${settings.apiKeySet ? 'good' : 'attention'}`}>{settings.apiKeySet ? 'set' : 'not set'}</span>{' '}
        {KEY_SOURCE[settings.apiKeySource]}
      </p>
      {/* A key kept in memory is said once (the line above), not again as a warning (issue 34 item 8). */}
      {settings.apiKeyWarning && settings.apiKeySource !== 'session' && (
        <div className="warning-box" role="alert">
          {appWords(settings.apiKeyWarning)}
        </div>
      )}
      {!fromEnv && (
        <SecretForm
          label="new API key"
          placeholder="sk-ant-…"
          replacePlaceholder="Replace the key: sk-ant-…"
          set={settings.apiKeySet}
          saving={saving}
          errorId={keyError ? 'key-error' : null}
          saveText="Save key"
          checkingText="Checking the key…"
          removeText="Remove key"
          onSubmit={submit}
        />
      )}
      <FormNotices error={keyError} errorId="key-error" saved={saved} />
    </section>
  );
}

/** How long "Settings saved" stays up after a save (the same as every success note). */
export { SAVED_NOTE_MS };

/** One field's problem, under the field; `id` is what the field's aria-describedby names. */
function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <span id={id} className="field-error">
      {message}
    </span>
  ) : null;
}

const errId = (key: string) => `err-${key.replace(/[^\w-]/g, '-')}`;

/** `onNotSaved`: a save was refused (a field needs a fix): an earlier "Settings saved" must not stand next to it. */
function SettingsForm({ settings, saved, onSaved, onNotSaved }: { settings: Settings; saved: boolean; onSaved: () => void; onNotSaved: () => void }) {
  const save = useSettings((s) => s.save);
  const saving = useSettings((s) => s.saving);
  const saveError = useSettings((s) => s.saveError);
  const [model, setModel] = useState(settings.defaultModel);
  const [preset, setPreset] = useState(settings.preset);
  const [taskUsd, setTaskUsd] = useState(settings.budget.taskUsd?.toString() ?? '');
  const [dailyUsd, setDailyUsd] = useState(settings.budget.dailyUsd?.toString() ?? '');
  const [alertPct, setAlertPct] = useState(String(Math.round(settings.budget.alertAt * 100)));
  const [concurrency, setConcurrency] = useState(String(settings.concurrency));
  const [notifications, setNotifications] = useState(settings.notifications);
  const [worktreeFolder, setWorktreeFolder] = useState(settings.worktreeFolder ?? '');
  const [sandbox, setSandbox] = useState(settings.sandbox);
  const [notify, setNotify] = useState(() => notifyFields(settings.notify));
  const [prices, setPrices] = useState<PriceRow[]>(() => pricingRows(settings.pricing));
  // Empty required fields are pointed out once the user tries to save; a value typed wrong is pointed out at once.
  const [attempted, setAttempted] = useState(false);

  const checked = checkSettings({
    model,
    preset,
    taskUsd,
    dailyUsd,
    alertPct,
    concurrency,
    notifications,
    worktreeFolder,
    sandbox,
    notify: notifyValue(notify),
    prices,
  });
  const errors = checked.ok ? {} : checked.errors;
  const typed: Record<string, string> = {
    defaultModel: model,
    'budget.taskUsd': taskUsd,
    'budget.dailyUsd': dailyUsd,
    'budget.alertAt': alertPct,
    concurrency,
  };
  prices.forEach((r, i) => {
    for (const c of PRICE_COLUMNS) typed[priceKey(i, c)] = r[c];
    typed[priceKey(i, 'model')] = r.model;
  });
  const shown: FieldErrors = Object.fromEntries(Object.entries(errors).filter(([k]) => attempted || (typed[k] ?? '').trim() !== ''));
  const field = (key: string) => ({ 'aria-invalid': shown[key] !== undefined, 'aria-describedby': shown[key] ? errId(key) : undefined });
  const count = Object.keys(errors).length;
  const [pricingOpen, setPricingOpen] = useState(false);
  const pricingShown = pricingOpen || (attempted && count > 0);

  const submit = async () => {
    setAttempted(true);
    if (!checked.ok) {
      onNotSaved();
      // Take the user to the first field that needs them (the pricing table may be far down).
      requestAnimationFrame(() => document.querySelector<HTMLElement>('.settings-form [aria-invalid="true"]')?.focus());
      return;
    }
    if (await save(checked.patch)) onSaved();
    else onNotSaved();
  };

  return (
    <form
      className="settings-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <section className="card settings-section" aria-labelledby="h-agent">
        <h2 id="h-agent">Agent and retries</h2>
        <div className="inline-fields">
          <label className="field-inline">
            Default model
            <input list="models" className="mono" value={model} onChange={(e) => setModel(e.target.value)} {...field('defaultModel')} />
            <datalist id="models">
              {prices.map((p) => (
                <option key={p.model} value={p.model} />
              ))}
            </datalist>
            <FieldError id={errId('defaultModel')} message={shown.defaultModel} />
          </label>
          <label className="field-inline">
            Retry preset
            <select value={preset} onChange={(e) => setPreset(e.target.value as Settings['preset'])}>
              <PresetOptions />
            </select>
          </label>
          <label className="field-inline">
            Runs at once
            <input
              type="number"
              min="1"
              max="16"
              step="1"
              inputMode="numeric"
              value={concurrency}
              onChange={(e) => setConcurrency(e.target.value)}
              {...field('concurrency')}
            />
            <FieldError id={errId('concurrency')} message={shown.concurrency} />
          </label>
        </div>
        {!prices.some((p) => p.model === model.trim()) && model.trim() && (
          <p className="small-text tone-attention">No price for {model.trim()}: its cost will show as unknown.</p>
        )}
      </section>

      <section className="card settings-section" aria-labelledby="h-budget">
        <h2 id="h-budget">Budgets</h2>
        <div className="inline-fields">
          <label className="field-inline">
            Per task (USD)
            <input
              type="number"
              min="0"
              step="any"
              inputMode="decimal"
              value={taskUsd}
              placeholder="none"
              onChange={(e) => setTaskUsd(e.target.value)}
              {...field('budget.taskUsd')}
            />
            <FieldError id={errId('budget.taskUsd')} message={shown['budget.taskUsd']} />
          </label>
          <label className="field-inline">
            Per day (USD)
            <input
              type="number"
              min="0"
              step="any"
              inputMode="decimal"
              value={dailyUsd}
              placeholder="none"
              onChange={(e) => setDailyUsd(e.target.value)}
              {...field('budget.dailyUsd')}
            />
            <FieldError id={errId('budget.dailyUsd')} message={shown['budget.dailyUsd']} />
          </label>
          <label className="field-inline">
            Alert at (%)
            <input
              type="number"
              min="1"
              max="100"
              step="any"
              inputMode="decimal"
              value={alertPct}
              onChange={(e) => setAlertPct(e.target.value)}
              {...field('budget.alertAt')}
            />
            <FieldError id={errId('budget.alertAt')} message={shown['budget.alertAt']} />
          </label>
        </div>
        <p className="muted small-text">
          Any amount in dollars and cents (0.50, 2.25, 0.004). Over the task budget a run pauses; over the daily budget runs wait for the next day. Nothing is
          lost either way. A workflow’s own <code>budget:</code> applies to its runs instead.
        </p>
      </section>

      <section className="card settings-section" aria-labelledby="h-pricing">
        {/* Folded to one line (issue 34 item 8): the table is 16 rows of 4 prices that are rarely changed; a field to fix opens it. */}
        <header className="card-header">
          <h2 id="h-pricing">
            Pricing <span className="muted small-text">USD per million tokens</span>
          </h2>
          <button type="button" className="small" aria-expanded={pricingShown} onClick={() => setPricingOpen(!pricingShown)}>
            {pricingShown ? 'Hide prices' : `${prices.length} models · Edit prices`}
          </button>
        </header>
        {pricingShown && <PricingTable rows={prices} onChange={setPrices} errors={shown} errorId={errId} />}
      </section>

      <section className="card settings-section" aria-labelledby="h-sandbox">
        <h2 id="h-sandbox">Sandbox</h2>
        {settings.sandboxStatus.state === 'unavailable' && (
          <p role="alert" className="small-text tone-bad">
            {settings.sandboxStatus.message}
          </p>
        )}
        <label className="check">
          <input type="checkbox" checked={sandbox} onChange={(e) => setSandbox(e.target.checked)} /> Run the agent’s shell, gates and CLI agents in the OS
          sandbox (writes only in the worktree, no network but the workflow’s hosts)
        </label>
        {!sandbox && <p className="small-text tone-attention">Off: the agent’s commands can write anywhere you can, read your keys and reach any host.</p>}
      </section>

      <NotifySettingsSection value={notify} onChange={setNotify} />

      <section className="card settings-section" aria-labelledby="h-other">
        <h2 id="h-other">Other</h2>
        <label className="check">
          <input type="checkbox" checked={notifications} onChange={(e) => setNotifications(e.target.checked)} /> Desktop notifications when a run needs you or
          finishes
        </label>
        <label className="field">
          Worktree folder
          <input
            className="mono"
            value={worktreeFolder}
            placeholder="default: worktrees/ in Ratchet’s data folder"
            onChange={(e) => setWorktreeFolder(e.target.value)}
          />
        </label>
      </section>

      <footer className="form-footer">
        {attempted && count > 0 && (
          <span className="small-text tone-bad" role="alert">
            Not saved: {count === 1 ? 'one field needs' : `${count} fields need`} a fix (marked above).
          </span>
        )}
        <InlineError message={saveError} />
        {saved && !saving && (
          <span className="saved-note tone-good" role="status">
            Settings saved
          </span>
        )}
        <button type="submit" className="primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save settings'}
        </button>
      </footer>
    </form>
  );
}
