/**
 * The header row of a plain (unsorted) table, from its column names. Figures are right-aligned
 * under a right-aligned name; a column of buttons is named for screen readers only (the class
 * that hides it is the one styles.css defines, which a hand-written header once got wrong).
 */
export interface Column {
  label: string;
  numeric?: boolean;
  /** Read by screen readers, not shown (a column of buttons). */
  hidden?: boolean;
}

/** A right-aligned column of figures. */
export const figures = (label: string): Column => ({ label, numeric: true });

/** A column of buttons, named for screen readers. */
export const actions: Column = { label: 'Actions', hidden: true };

export function TableHead(props: { columns: readonly (string | Column)[] }) {
  return (
    <thead>
      <tr>
        {props.columns.map((column) => {
          const { label, numeric, hidden }: Column =
            typeof column === 'string' ? { label: column } : column;
          return (
            <th key={label} scope="col" className={numeric ? 'num' : undefined}>
              {hidden ? <span className="sr-only">{label}</span> : label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
