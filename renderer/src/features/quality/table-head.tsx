/** A figures table's header row: the first column names the row, the others are numbers. */
export type Column = string | { name: string; title: string };

export function TableHead({ columns }: { columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c, i) => {
          const name = typeof c === 'string' ? c : c.name;
          return (
            <th
              key={name}
              scope="col"
              className={i === 0 ? undefined : 'num'}
              title={typeof c === 'string' ? undefined : c.title}
            >
              {name}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
