// Settings: the API key (write-only), default model, pricing table, budgets, retry preset, notifications, worktree folder.
import { useEffect, useState } from 'react';
import type { Settings } from '../../../shared/contract';
import { useSettings } from '../stores/settings';
import { ErrorState, InlineError, Loading } from '../components/States';
import { PricingTable, pricingFromRows, pricingRows, type PriceRow } from './PricingTable';
import { NotifySettingsSection, notifyFields, notifyProblems, notifyValue } from './NotifySettings';

const KEY_SOURCE: Record<Settings['apiKeySource'], string> = {
  safe_storage: 'Kept encrypted by the operating system’s keychain (Electron safeStorage), never in plain text.',
  environment: 'Read from ANTHROPIC_API_KEY in the environment of the headless host; it cannot be changed from here.',
  none: 'No key is set. Runs with the Anthropic agent will fail until one is.',
};

export function SettingsScreen() {
  const status = useSettings((s) => s.status);
  const settings = useSettings((s) => s.settings);
  const error = useSettings((s) => s.error);
  const load = useSettings((s) => s.load);
  useEffect(() => {
    if (status === 'idle') void load();
  }, [status, load]);
  if (!settings) {
    return <div className="screen"><h1>Settings</h1>{status === 'error' ? <ErrorState message={error ?? ''} onRetry={() => void load()} /> : <Loading label="Loading settings…" />}</div>;
  }
  return (
    <div className="screen settings">
      <h1>Settings</h1>
      <ApiKey settings={settings} />
      <SettingsForm key={JSON.stringify(settings)} settings={settings} />
    </div>
  );
}

function ApiKey({ settings }: { settings: Settings }) {
  const setApiKey = useSettings((s) => s.setApiKey);
  const saving = useSettings((s) => s.saving);
  const [key, setKey] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const fromEnv = settings.apiKeySource === 'environment';
  const submit = async (value: string | null) => {
    setSaved(null);
    if (await setApiKey(value)) {
      setKey('');
      setSaved(value ? 'Key saved.' : 'Key removed.');
    }
  };
  return (
    <section className="card settings-section" aria-labelledby="h-key">
      <h2 id="h-key">Anthropic API key</h2>
      <p className="small-text">
        <span className={`badge tone-${settings.apiKeySet ? 'good' : 'attention'}`}>{settings.apiKeySet ? 'set' : 'not set'}</span> {KEY_SOURCE[settings.apiKeySource]}
      </p>
      {settings.apiKeyWarning && <div className="warning-box" role="alert">{settings.apiKeyWarning}</div>}
      {!fromEnv && (
        <form className="row" onSubmit={(e) => { e.preventDefault(); if (key.trim()) void submit(key.trim()); }}>
          {/* Write-only: the key is never read back, so the field always starts empty. */}
          <input type="password" className="mono" autoComplete="off" spellCheck={false} aria-label="new API key" placeholder={settings.apiKeySet ? 'Replace the key: sk-ant-…' : 'sk-ant-…'} value={key} onChange={(e) => setKey(e.target.value)} />
          <button type="submit" className="primary" disabled={!key.trim() || saving}>Save key</button>
          {settings.apiKeySet && <button type="button" className="danger-outline" disabled={saving} onClick={() => void submit(null)}>Remove key</button>}
        </form>
      )}
      {saved && <p className="small-text tone-good" role="status">{saved}</p>}
    </section>
  );
}

function SettingsForm({ settings }: { settings: Settings }) {
  const save = useSettings((s) => s.save);
  const saving = useSettings((s) => s.saving);
  const saveError = useSettings((s) => s.saveError);
  const [model, setModel] = useState(settings.defaultModel);
  const [preset, setPreset] = useState(settings.preset);
  const [taskUsd, setTaskUsd] = useState(settings.budget.taskUsd?.toString() ?? '');
  const [dailyUsd, setDailyUsd] = useState(settings.budget.dailyUsd?.toString() ?? '');
  const [alertPct, setAlertPct] = useState(String(Math.round(settings.budget.alertAt * 100)));
  const [notifications, setNotifications] = useState(settings.notifications);
  const [worktreeFolder, setWorktreeFolder] = useState(settings.worktreeFolder ?? '');
  const [sandbox, setSandbox] = useState(settings.sandbox);
  const [notify, setNotify] = useState(() => notifyFields(settings.notify));
  const [prices, setPrices] = useState<PriceRow[]>(() => pricingRows(settings.pricing));
  const [saved, setSaved] = useState(false);

  const money = (v: string) => (v.trim() === '' ? null : Number(v));
  const task = money(taskUsd);
  const daily = money(dailyUsd);
  const alert = Number(alertPct) / 100;
  const pricing = pricingFromRows(prices);
  const problems = [
    task !== null && !(task > 0) && 'the task budget must be above zero (or empty for none)',
    daily !== null && !(daily > 0) && 'the daily budget must be above zero (or empty for none)',
    !(alert > 0 && alert <= 1) && 'the alert threshold must be between 1 and 100 %',
    pricing === null && 'every pricing row needs a unique model name and prices of zero or more',
    !model.trim() && 'a default model',
    ...notifyProblems(notify),
  ].filter(Boolean) as string[];

  const submit = async () => {
    setSaved(false);
    const ok = await save({
      defaultModel: model.trim(), preset, notifications, worktreeFolder: worktreeFolder.trim() || null, sandbox, notify: notifyValue(notify),
      budget: { taskUsd: task, dailyUsd: daily, alertAt: alert }, pricing: pricing ?? settings.pricing,
    });
    setSaved(ok);
  };

  return (
    <form className="settings-form" onSubmit={(e) => { e.preventDefault(); if (problems.length === 0) void submit(); }}>
      <section className="card settings-section" aria-labelledby="h-agent">
        <h2 id="h-agent">Agent and retries</h2>
        <div className="inline-fields">
          <label className="field-inline">Default model
            <input list="models" className="mono" value={model} onChange={(e) => setModel(e.target.value)} />
            <datalist id="models">{prices.map((p) => <option key={p.model} value={p.model} />)}</datalist>
          </label>
          <label className="field-inline">Retry preset
            <select value={preset} onChange={(e) => setPreset(e.target.value as Settings['preset'])}>
              <option value="conservative">conservative</option>
              <option value="aggressive">aggressive</option>
              <option value="minimal">minimal</option>
            </select>
          </label>
        </div>
        {!prices.some((p) => p.model === model.trim()) && model.trim() && <p className="small-text tone-attention">No price for {model.trim()}: its cost will show as unknown.</p>}
      </section>

      <section className="card settings-section" aria-labelledby="h-budget">
        <h2 id="h-budget">Budgets</h2>
        <div className="inline-fields">
          <label className="field-inline">Per task (USD)<input type="number" min="0" step="0.5" value={taskUsd} placeholder="none" onChange={(e) => setTaskUsd(e.target.value)} /></label>
          <label className="field-inline">Per day (USD)<input type="number" min="0" step="1" value={dailyUsd} placeholder="none" onChange={(e) => setDailyUsd(e.target.value)} /></label>
          <label className="field-inline">Alert at (%)<input type="number" min="1" max="100" value={alertPct} onChange={(e) => setAlertPct(e.target.value)} /></label>
        </div>
        <p className="muted small-text">Over the task budget a run pauses; over the daily budget runs wait for the next day. Nothing is lost either way.</p>
      </section>

      <section className="card settings-section" aria-labelledby="h-pricing">
        <h2 id="h-pricing">Pricing <span className="muted small-text">USD per million tokens</span></h2>
        <PricingTable rows={prices} onChange={setPrices} />
      </section>

      <section className="card settings-section" aria-labelledby="h-sandbox">
        <h2 id="h-sandbox">Sandbox</h2>
        {settings.sandboxStatus.state === 'unavailable' && <p role="alert" className="small-text tone-bad">{settings.sandboxStatus.message}</p>}
        <label className="check"><input type="checkbox" checked={sandbox} onChange={(e) => setSandbox(e.target.checked)} /> Run the agent’s shell, gates and CLI agents in the OS sandbox (writes only in the worktree, no network but the workflow’s hosts)</label>
        {!sandbox && <p className="small-text tone-attention">Off: the agent’s commands can write anywhere you can, read your keys and reach any host.</p>}
      </section>

      <NotifySettingsSection value={notify} onChange={setNotify} />

      <section className="card settings-section" aria-labelledby="h-other">
        <h2 id="h-other">Other</h2>
        <label className="check"><input type="checkbox" checked={notifications} onChange={(e) => setNotifications(e.target.checked)} /> Desktop notifications when a run needs you or finishes</label>
        <label className="field">Worktree folder<input className="mono" value={worktreeFolder} placeholder="default: worktrees/ in Ratchet’s data folder" onChange={(e) => setWorktreeFolder(e.target.value)} /></label>
      </section>

      <footer className="form-footer">
        {problems.length > 0 && <span className="small-text tone-bad">Needs {problems.join('; ')}.</span>}
        <InlineError message={saveError} />
        {saved && <span className="small-text tone-good" role="status">Saved.</span>}
        <button type="submit" className="primary" disabled={saving || problems.length > 0}>{saving ? 'Saving…' : 'Save settings'}</button>
      </footer>
    </form>
  );
}
