// A name cut in its middle when it does not fit, so its end stays in view: a run's branch keeps its unique suffix
// ("ratchet/division-that-ref…-4f9c2a"), the whole name on hover.

/** Where a name splits into the part that may shrink and the end that must stay: a branch's last `-<id>`, else its last 8 characters. */
export function splitForEllipsis(text: string): { head: string; tail: string } {
  const suffix = /-[^-/]{1,16}$/.exec(text);
  const cut = suffix && suffix.index > 0 ? suffix.index : Math.max(0, text.length - 8);
  return { head: text.slice(0, cut), tail: text.slice(cut) };
}

export function MiddleEllipsis({ text, className = '' }: { text: string; className?: string }) {
  const { head, tail } = splitForEllipsis(text);
  return (
    <span className={`middle-ellipsis ${className}`.trim()} title={text}>
      <span className="head">{head}</span>
      <span className="tail">{tail}</span>
    </span>
  );
}
