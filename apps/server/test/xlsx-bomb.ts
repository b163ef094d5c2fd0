import zlib from 'node:zlib';

/**
 * Crafted .xlsx files for the import's limits (issue 42, item 7), built with node:zlib: a real
 * workbook's parts whose one sheet unpacks to `rows` rows, deflated; `lie`: each entry declares a
 * size of 1 KiB in its headers, whatever it inflates to.
 */
export function xlsxBomb(o: { rows: number; lie?: boolean; addressed?: boolean }): { file: Buffer; unpacked: number } {
  // A small one is a readable sheet (a heading row, then members); a large one repeats one row
  // without its address, which deflates a thousand to one.
  const cells = (a: string, b: string, r?: number) =>
    `<c${r ? ` r="A${r}"` : ''} t="inlineStr"><is><t>${a}</t></is></c><c${r ? ` r="B${r}"` : ''} t="inlineStr"><is><t>${b}</t></is></c>`;
  const data =
    o.rows <= 1000 || o.addressed
      ? Array.from({ length: o.rows }, (_, i) =>
          i === 0
            ? `<row r="1">${cells('姓名', '手机号', 1)}</row>`
            : `<row r="${i + 1}">${cells(`张三${i}`, `1380013${String(i).padStart(4, '0')}`, i + 1)}</row>`,
        ).join('')
      : `<row>${cells('张三', '13800138000')}</row>`.repeat(o.rows);
  const sheet = Buffer.from(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${data}</sheetData></worksheet>`,
  );
  const parts: [string, Buffer][] = [
    [
      '[Content_Types].xml',
      Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
      ),
    ],
    [
      '_rels/.rels',
      Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
      ),
    ],
    [
      'xl/workbook.xml',
      Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="会员" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ),
    ],
    [
      'xl/_rels/workbook.xml.rels',
      Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
      ),
    ],
    ['xl/worksheets/sheet1.xml', sheet],
  ];
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, body] of parts) {
    const n = Buffer.from(name);
    const packed = zlib.deflateRawSync(body, { level: 9 });
    const size = o.lie ? 1024 : body.length;
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(0x0800, 6);
    head.writeUInt16LE(8, 8);
    head.writeUInt32LE(zlib.crc32(body), 14);
    head.writeUInt32LE(packed.length, 18);
    head.writeUInt32LE(size, 22);
    head.writeUInt16LE(n.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(0x0800, 8);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(zlib.crc32(body), 16);
    dir.writeUInt32LE(packed.length, 20);
    dir.writeUInt32LE(size, 24);
    dir.writeUInt16LE(n.length, 28);
    dir.writeUInt32LE(offset, 42);
    local.push(head, n, packed);
    central.push(dir, n);
    offset += 30 + n.length + packed.length;
  }
  const dirSize = central.reduce((t, b) => t + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(dirSize, 12);
  end.writeUInt32LE(offset, 16);
  return { file: Buffer.concat([...local, ...central, end]), unpacked: sheet.length };
}
