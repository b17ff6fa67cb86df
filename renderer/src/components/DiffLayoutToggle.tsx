// Unified or Split: the diff views' one layout switch (the review's and an attempt's), a radio group of two buttons.
export function DiffLayoutToggle({ split, onChange }: { split: boolean; onChange: (split: boolean) => void }) {
  return (
    <div className="segmented" role="radiogroup" aria-label="diff layout">
      {(['Unified', 'Split'] as const).map((label) => (
        <button
          key={label}
          type="button"
          role="radio"
          aria-checked={split === (label === 'Split')}
          className={`small${split === (label === 'Split') ? ' active' : ''}`}
          onClick={() => onChange(label === 'Split')}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
