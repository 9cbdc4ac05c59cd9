import { useState, type ReactNode } from 'react';

/**
 * A decimal setting typed into a field and saved when the field is left, as typed (trimmed);
 * leaving it unchanged saves nothing.
 */
export function SavedDecimalField(props: {
  label: ReactNode;
  saved: string;
  save: (value: string) => Promise<void>;
  testId?: string;
  note?: { id: string; text: ReactNode };
}) {
  const [value, setValue] = useState(props.saved);
  return (
    <label className="field">
      <span>{props.label}</span>
      <input
        inputMode="decimal"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onBlur={() => value !== props.saved && void props.save(value.trim())}
        aria-describedby={props.note?.id}
        data-testid={props.testId}
      />
      {props.note && (
        <small className="muted" id={props.note.id}>
          {props.note.text}
        </small>
      )}
    </label>
  );
}
