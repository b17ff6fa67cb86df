// The app's icons: SVGs from lucide-react (font glyphs such as ⏸ ▶ ✓ ✗ render as empty boxes with some Linux fonts).
import type { LucideIcon, LucideProps } from 'lucide-react';
import {
  ArrowDown,
  ArrowUp,
  Check,
  Circle,
  CircleAlert,
  CircleCheck,
  CircleStop,
  CircleX,
  Clock,
  FlaskConical,
  LoaderCircle,
  Pause,
  Play,
  RotateCcw,
  RotateCw,
  SkipForward,
  Square,
  TriangleAlert,
  Unplug,
  Waves,
  X,
} from 'lucide-react';

export type { LucideIcon };

/** The icons the renderer uses, by one name each (add here rather than importing glyphs). */
export const Icons = {
  arrowDown: ArrowDown,
  arrowUp: ArrowUp,
  check: Check,
  clock: Clock,
  flask: FlaskConical,
  pending: Circle,
  error: CircleAlert,
  succeeded: CircleCheck,
  stopped: CircleStop,
  failed: CircleX,
  running: LoaderCircle,
  pause: Pause,
  play: Play,
  restart: RotateCcw,
  brand: RotateCw,
  skip: SkipForward,
  stop: Square,
  warning: TriangleAlert,
  interrupted: Unplug,
  flaky: Waves,
  close: X,
} satisfies Record<string, LucideIcon>;

export type IconName = keyof typeof Icons;

/** A decorative icon: hidden from screen readers (the text or aria-label next to it says what it means), 1em by default. */
export function Icon({ name, size = '1em', className, ...rest }: { name: IconName } & Omit<LucideProps, 'ref'>) {
  const Svg = Icons[name];
  return <Svg aria-hidden="true" focusable="false" size={size} className={`icon icon-${name}${className ? ` ${className}` : ''}`} {...rest} />;
}
