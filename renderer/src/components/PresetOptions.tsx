// The retry presets as <option>s, for the selects that pick one (Settings, New task).
import type { StartRunInput } from '../../../shared/contract';

const PRESETS: readonly NonNullable<StartRunInput['preset']>[] = ['conservative', 'aggressive', 'minimal'];

export function PresetOptions() {
  return (
    <>
      {PRESETS.map((p) => (
        <option key={p} value={p}>
          {p}
        </option>
      ))}
    </>
  );
}
