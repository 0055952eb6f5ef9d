/** A strict RFC 4180 reader for the tests: quoted fields, doubled quotes, CRLF record ends. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error("unterminated quoted field");
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
    }
    if (text.startsWith("\r\n", i)) {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i += 2;
    } else if (text[i] === ",") {
      record.push(field);
      field = "";
      i++;
    } else if (i < text.length) {
      if (text[i] === '"' || text[i] === "\r" || text[i] === "\n") throw new Error(`unquoted special character at ${i}`);
      field += text[i++];
    }
  }
  if (field !== "" || record.length > 0) throw new Error("last record lacks its CRLF");
  return records;
}

/** CSV records as objects keyed by the header row. */
export function csvObjects(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  return rows.map((row) => {
    if (row.length !== header!.length) throw new Error(`record of ${row.length} fields, header has ${header!.length}`);
    return Object.fromEntries(header!.map((name, index) => [name, row[index]!]));
  });
}
