// Pure: everything a repository's workflow file would let its code do beyond the defaults, as the trust prompt lists it (CLI and app), with a warning where one is due.
import { money } from '../../../shared/money';
import { NOTIFY_CHANNELS } from '../../../shared/notify-channels';
import { REGISTRY_LOOKUPS } from '../sandbox/registries';
import { REGISTRY_PRESETS, type RegistryPreset, type Workflow } from '../workflow/schema';

/** One line of the trust prompt: where it comes from in the file, what it is, and why to look twice (when there is a reason). */
export interface TrustItem {
  source: string;
  command: string;
  warning?: string;
}

/** Variable names that usually hold a secret: the repository's code would read its value. */
const SECRET_NAME =
  /PASSWORD|PASSWD|SECRET|TOKEN|CREDENTIAL|APIKEY|PRIVATE_KEY|(^|_)(KEY|KEYS|PASS|AUTH|PAT|DSN|COOKIE|SESSION)(_|$)|^(AWS|AZURE|GCP)_|^(DATABASE_URL|KUBECONFIG|NETRC)$/;

export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name.toUpperCase());
}

/** Globs of `copy:` that likely bring a secret from the checkout, or bring everything. */
const SECRET_GLOB = /(^|[/*.])(env|secrets?|credentials?|tokens?|keys?|pem|p12|pfx|npmrc|netrc|pypirc|pgpass|id_rsa|id_ed25519|kubeconfig)([/*.]|$)/i;
const BROAD_GLOB = /^(\*\*?\/?)+(\*)?$/;

const LOCAL_HOST = /^(localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[?::1\]?|host\.docker\.internal)(:\d+)?$|\.(local|localhost|internal)(:\d+)?$/i;

function networkItem(source: string, entry: string): TrustItem {
  if (entry.startsWith('registry:')) {
    const tool = entry.slice('registry:'.length);
    const runs = (REGISTRY_PRESETS as readonly string[]).includes(tool) ? REGISTRY_LOOKUPS[tool as RegistryPreset] : null;
    return {
      source,
      command: `${entry} — the package registry your ${tool} is configured with, its host looked up from your own ${tool} configuration when the run starts`,
      ...(runs ? { warning: `to find it Ratchet runs your own ${runs} outside the sandbox, with a minimal environment, in an empty folder of its own` } : {}),
    };
  }
  if (entry.startsWith('*.')) {
    return { source, command: entry, warning: `a wildcard: every host under ${entry.slice(2)}, including ones whoever controls that domain adds later` };
  }
  if (LOCAL_HOST.test(entry))
    return { source, command: entry, warning: 'your own machine or local network: services listening there become reachable from the sandbox' };
  return { source, command: entry };
}

/**
 * What the trust prompt lists for a repository's workflow: every command it runs (gates and their restarts, `setup`,
 * validators, the agent and the retry entries' agents), every widening of the sandbox (`sandbox.env`, `sandbox.network`,
 * `setup.network`, `sandbox.limits`), files it copies in from the checkout (`copy`), where notifications go (`notify`)
 * and its own budget (which takes the place of the one in Settings).
 */
export function trustItems(workflow: Workflow): TrustItem[] {
  const out: TrustItem[] = [];
  for (const [name, gate] of Object.entries(workflow.gates)) {
    out.push({ source: `gate ${name}`, command: gate.run });
    if (gate.restart) out.push({ source: `gate ${name} restart`, command: gate.restart });
  }
  if (workflow.setup) {
    const runs = Array.isArray(workflow.setup.run) ? workflow.setup.run : [workflow.setup.run];
    for (const cmd of runs) out.push({ source: 'setup', command: cmd });
    for (const entry of workflow.setup.network) out.push(networkItem('setup network', entry));
  }
  for (const glob of workflow.copy ?? []) {
    const warning = BROAD_GLOB.test(glob.trim())
      ? "copies every file of your checkout git does not carry (.env files and local keys included) where the agent and the repository's code read them"
      : SECRET_GLOB.test(glob)
        ? "looks like a secret: copied from your checkout where the agent and the repository's code read it"
        : undefined;
    out.push({ source: 'copy', command: glob, ...(warning ? { warning } : {}) });
  }
  const agent = workflow.agent;
  out.push({ source: 'agent', command: agent.kind === 'command' && agent.command ? agent.command.join(' ') : `${agent.kind} (model ${agent.model})` });
  (workflow.retry ?? []).forEach((entry, i) => {
    if (entry.validate) out.push({ source: `retry[${i}] validate`, command: entry.validate });
    const a = entry.agent;
    if (a?.command) out.push({ source: `retry[${i}] agent`, command: a.command.join(' ') });
    else if (a?.kind || a?.model) out.push({ source: `retry[${i}] agent`, command: [a.kind, a.model && `model ${a.model}`].filter(Boolean).join(', ') });
  });
  for (const name of workflow.sandbox?.env ?? []) {
    out.push({
      source: 'sandbox.env',
      command: name,
      ...(looksSecret(name) ? { warning: "looks like a secret: its value would be given to the repository's code and the agent" } : {}),
    });
  }
  for (const entry of workflow.sandbox?.network ?? []) out.push(networkItem('sandbox.network', entry));
  const limits = workflow.sandbox?.limits;
  if (limits) {
    const parts = [
      limits.memory_mb !== undefined && `memory ${limits.memory_mb} MB`,
      limits.processes !== undefined && `${limits.processes} processes`,
      limits.file_mb !== undefined && `files up to ${limits.file_mb} MB`,
      limits.disk_mb !== undefined && `disk ${limits.disk_mb} MB`,
    ].filter(Boolean);
    if (parts.length) out.push({ source: 'sandbox.limits', command: parts.join(', ') });
  }
  for (const { name } of NOTIFY_CHANNELS) {
    const url = workflow.notify?.[name];
    if (url)
      out.push({
        source: `notify ${name}`,
        command: url,
        warning: "Ratchet sends this run's notifications there from your machine (task, status, step, error class, cost)",
      });
  }
  const budget = workflow.budget;
  if (budget && (budget.task_usd !== undefined || budget.daily_usd !== undefined)) {
    const parts = [
      budget.task_usd !== undefined && `task ${money(budget.task_usd)}`,
      budget.daily_usd !== undefined && `daily ${money(budget.daily_usd)}`,
    ].filter(Boolean);
    out.push({ source: 'budget', command: parts.join(', '), warning: 'replaces the budget in your Settings for these runs' });
  }
  return out;
}

/** The prompt's lines: `  source: command` with a `    ! warning` under the ones that have one. */
export function trustLines(items: readonly TrustItem[]): string[] {
  return items.flatMap((i) => [`  ${i.source}: ${i.command}`, ...(i.warning ? [`    ! ${i.warning}`] : [])]);
}
