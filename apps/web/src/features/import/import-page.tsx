import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import {
  IMPORT_FIELD_LABEL,
  IMPORT_FIELDS,
  IMPORT_ROWS_MAX,
  LEAD_IMPORT_SHEET,
  JOB_PHASE_LABEL,
  type ImportMapping,
  type ImportProblem,
  type ImportTarget,
  type ResOf,
  type importMembers,
  type queryImportColumns,
} from '@studio/contract';
import {
  Alert,
  Button,
  Card,
  Progress,
  Radio,
  Result,
  Select,
  Space,
  Spin,
  Steps,
  Table,
  Typography,
  Upload,
} from 'antd';
import { useState } from 'react';
import { Link } from '../../shared/router.tsx';
import { readAsBase64, useExport, useImport, useImportColumns, type JobBar, type PickedFile } from './hooks.ts';
import { downloadTemplate } from './template.ts';

type Columns = ResOf<typeof queryImportColumns>;
type Outcome = ResOf<typeof importMembers>;

const FIELD_OPTIONS = [
  { value: 'ignore', label: '不导入' },
  ...IMPORT_FIELDS.map((f) => ({ value: f, label: IMPORT_FIELD_LABEL[f] })),
];

/** What a dry run or an import did, in words. */
function summary(o: Outcome, done: boolean) {
  const verb = done ? '已' : '将';
  // A file of only leads says nothing of members and cards.
  const members = o.members || o.updated || o.skipped || o.cards || !(o.leads || o.leadsMerged);
  return [
    members ? `${verb}新增 ${o.members} 位会员` : '',
    o.updated ? `${verb}更新 ${o.updated} 位已有会员` : '',
    o.skipped ? `${verb}跳过 ${o.skipped} 位已有会员` : '',
    members ? `${verb}导入 ${o.cards} 张会员卡（每张记一笔“导入期初余额”流水）` : '',
    o.leads ? `${verb}新增 ${o.leads} 位潜客` : '',
    o.leadsMerged ? `${verb}合并 ${o.leadsMerged} 位已有潜客` : '',
  ]
    .filter(Boolean)
    .join('，');
}

/** A file's problems or warnings, row by row (sheet, row, column, what). */
function ProblemTable({ label, problems }: { label: string; problems: ImportProblem[] }) {
  return (
    <Table<ImportProblem>
      rowKey={(p) => `${p.sheet}:${p.row}:${p.column}:${p.message}`}
      size="small"
      aria-label={label}
      dataSource={problems}
      pagination={{ pageSize: 20, showSizeChanger: false }}
      columns={[
        ...(problems.some((p) => p.sheet) ? [{ title: '工作表', dataIndex: 'sheet', width: 90 }] : []),
        { title: '行号', dataIndex: 'row', width: 80 },
        { title: '列', dataIndex: 'column', width: 160, render: (v: string) => v || '-' },
        { title: '说明', dataIndex: 'message' },
      ]}
    />
  );
}

/**
 * The file's warnings, imported all the same: cards over the store's prepaid limits (预付卡限额), and
 * the 潜客 sheet's rows of a member's mobile or merged into a known lead (listed after the cards').
 */
function PrepaidWarnings({ o, done }: { o: Outcome; done: boolean }) {
  if (!o.warningCount) return null;
  const leads = o.warnings.filter((w) => w.sheet === LEAD_IMPORT_SHEET);
  const cards = o.warnings.filter((w) => w.sheet !== LEAD_IMPORT_SHEET);
  const cardCount = o.warningCount - leads.length;
  return (
    <>
      {cardCount > 0 && (
        <>
          <Alert
            type="warning"
            showIcon
            message={`${cardCount} 张卡超出本店的预付卡限额`}
            description={`这些卡是在别处售出的，${done ? '已' : '仍会'}照常导入；它们会列在 会员卡 → 预付卡限额 的超限卡中，请留意续费和充值时的限额。`}
          />
          <ProblemTable label="超出预付卡限额的卡" problems={cards} />
        </>
      )}
      {leads.length > 0 && (
        <>
          <Alert
            type="info"
            showIcon
            message={`潜客表中 ${leads.length} 行需要留意`}
            description={`已是会员的手机号${done ? '已' : '仍会'}导入为潜客（显示为已是会员）；已有潜客的手机号合并到该潜客。`}
          />
          <ProblemTable label="潜客表提示" problems={leads} />
        </>
      )}
    </>
  );
}

const n = (x: number) => x.toLocaleString('zh-CN');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

type JobKind = 'check' | 'import' | 'export';

/**
 * The figures of an import's or export's bar, in the manager's words: the upload in MB, the rows
 * checked, the members and cards written, the rows exported (`kind`: what a finished job did).
 */
function jobText(p: JobBar, kind: JobKind): string {
  switch (p.phase) {
    case 'upload':
      return `正在上传文件 ${mb(p.done)} / ${mb(p.total)}`;
    case 'check':
      return `已检查 ${n(p.done)} / ${n(p.total)} 行`;
    case 'write':
      return `已导入 ${n(p.done)} / ${n(p.total)} 条（会员和会员卡）`;
    case 'export':
      return p.total ? `已导出 ${n(p.done)} / ${n(p.total)} 行` : '正在统计要导出的行数…';
    case 'done':
      if (!p.total) return '已完成';
      return jobText({ phase: kind === 'import' ? 'write' : kind, done: p.done, total: p.total }, kind);
    default:
      return `${JOB_PHASE_LABEL[p.phase]}…`;
  }
}

/** A real progress bar of an import or export, with its figures (not a spinner). */
function JobProgress({ p, label, testId, kind }: { p: JobBar; label: string; testId: string; kind: JobKind }) {
  const percent = p.phase === 'done' ? 100 : p.total ? Math.floor((p.done * 100) / p.total) : 0;
  return (
    <div data-testid={testId} style={{ maxWidth: 520 }}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <Progress
        percent={percent}
        status={p.phase === 'failed' ? 'exception' : p.phase === 'done' ? 'success' : 'active'}
        aria-label={label}
      />
      <Typography.Text data-testid={`${testId}-text`}>{jobText(p, kind)}</Typography.Text>
    </div>
  );
}

/** /member/import: 导入 (upload, map the columns, dry run, import) and 导出全部数据 (店长). */
export default function ImportPage() {
  const [step, setStep] = useState(0);
  const [file, setFile] = useState<PickedFile | null>(null);
  const [columns, setColumns] = useState<Columns | null>(null);
  const [mapping, setMapping] = useState<ImportMapping>({});
  const [duplicates, setDuplicates] = useState<'merge' | 'skip'>('merge');
  const [report, setReport] = useState<Outcome | null>(null);
  const [result, setResult] = useState<Outcome | null>(null);
  const [importBar, setImportBar] = useState<JobBar | null>(null);
  const [exportBar, setExportBar] = useState<JobBar | null>(null);
  const read = useImportColumns();
  const run = useImport(setImportBar);
  const exporter = useExport(setExportBar);

  const restart = () => {
    setStep(0);
    setFile(null);
    setColumns(null);
    setReport(null);
    setResult(null);
    setImportBar(null);
  };
  const pick = async (f: File) => {
    const picked = { fileName: f.name, content: await readAsBase64(f) };
    const got = await read.run(picked);
    if (!got) return;
    setFile(picked);
    setColumns(got.data);
    // A column chosen by hand before (this visit, e.g. before fixing the file) keeps its choice.
    const kept = Object.fromEntries(Object.entries(mapping).filter(([c]) => got.data.columns.includes(c)));
    setMapping({ ...got.data.mapping, ...kept });
    setReport(null);
    setStep(1);
  };
  const dryRun = async () => {
    if (!file) return;
    setImportBar(null);
    const got = await run.run({ ...file, mapping, duplicates, dryRun: true });
    if (!got) return;
    setReport(got.data);
    setStep(2);
  };
  const doImport = async () => {
    if (!file) return;
    setImportBar(null);
    const got = await run.run({ ...file, mapping, duplicates, dryRun: false });
    if (!got) return;
    setResult(got.data);
    setStep(3);
  };

  return (
    <Card
      title="会员导入"
      extra={
        <Space>
          <Button icon={<DownloadOutlined />} onClick={() => void downloadTemplate()}>
            下载导入模板
          </Button>
          <Button loading={exporter.loading} onClick={() => void exporter.run('xlsx')}>
            导出全部数据
          </Button>
          <Button loading={exporter.loading} onClick={() => void exporter.run('json')}>
            导出 JSON
          </Button>
        </Space>
      }
    >
      {exportBar && (
        <div style={{ marginBottom: 16 }}>
          <JobProgress p={exportBar} label="导出全部数据" testId="export-progress" kind="export" />
        </div>
      )}
      <Steps
        current={step}
        style={{ marginBottom: 24 }}
        items={[{ title: '上传文件' }, { title: '对应列' }, { title: '预检' }, { title: '导入完成' }]}
      />
      {step === 0 && (
        <Spin spinning={read.loading} tip="正在读取文件…">
          <Upload.Dragger
            accept=".xlsx,.csv"
            showUploadList={false}
            beforeUpload={(f) => {
              void pick(f);
              return false;
            }}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">点击或拖入 .xlsx 或 .csv 文件</p>
            <p className="ant-upload-hint">
              第一行为表头；每行一位会员（有多张卡的会员每张卡一行）；一次最多 {IMPORT_ROWS_MAX.toLocaleString()}{' '}
              行。可先下载导入模板，或直接上传其他系统导出的表格再对应列。卡状态（正常、冻结、未开卡、已退卡）、激活截止、请假记录、退卡日期和共享成员可不填；共享成员填家庭卡共享给的会员手机号，多人用、分隔，这些会员需在同一文件中或已是本店会员。工作簿中名为“潜客”的表按姓名、手机号、来源、跟进人、阶段、备注、营销同意导入潜客（同一手机号合并为一位潜客）。
            </p>
          </Upload.Dragger>
        </Spin>
      )}
      {step === 1 && columns && file && (
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          {columns.columns.length > 0 ? (
            <Typography.Text>
              文件 <b>{file.fileName}</b> 共 {columns.rows}{' '}
              行会员数据。请为每一列选择对应的会员资料（上次的选择会被记住）。
            </Typography.Text>
          ) : (
            <Typography.Text>
              文件 <b>{file.fileName}</b> 只有潜客表，无需对应列，可直接预检。
            </Typography.Text>
          )}
          {columns.leadRows > 0 && (
            <Alert
              type="info"
              showIcon
              message={`潜客表共 ${columns.leadRows} 行`}
              description="潜客表按表头（姓名、手机号、来源、跟进人、阶段、备注、营销同意）导入，同一手机号合并为一位潜客。"
            />
          )}
          {columns.columns.length > 0 && (
            <>
              <Table
                rowKey="column"
                size="small"
                pagination={false}
                aria-label="列对应"
                dataSource={columns.columns.map((c) => ({
                  column: c,
                  sample: columns.sample.map((r) => r[columns.columns.indexOf(c)] ?? '').filter(Boolean)[0] ?? '',
                }))}
                columns={[
                  { title: '文件中的列', dataIndex: 'column', width: 200 },
                  { title: '示例', dataIndex: 'sample', width: 220, ellipsis: true },
                  {
                    title: '对应到',
                    render: (_, r) => (
                      <Select<ImportTarget>
                        aria-label={`${r.column} 对应到`}
                        style={{ width: 200 }}
                        value={mapping[r.column] ?? 'ignore'}
                        options={FIELD_OPTIONS}
                        onChange={(v) => setMapping({ ...mapping, [r.column]: v })}
                      />
                    ),
                  },
                ]}
              />
              <Space>
                <span>手机号已存在的会员：</span>
                <Radio.Group value={duplicates} onChange={(e) => setDuplicates(e.target.value)}>
                  <Radio value="merge">合并（更新文件中填写的资料，并添加会员卡）</Radio>
                  <Radio value="skip">跳过（不改动已有会员，也不添加卡）</Radio>
                </Radio.Group>
              </Space>
            </>
          )}
          <Space>
            <Button onClick={restart}>重新上传</Button>
            <Button type="primary" loading={run.loading} onClick={() => void dryRun()}>
              预检
            </Button>
          </Space>
          {run.loading && importBar && (
            <JobProgress p={importBar} label="预检进度" testId="import-progress" kind="check" />
          )}
        </Space>
      )}
      {step === 2 && report && (
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          {report.errorCount ? (
            <Alert
              type="error"
              showIcon
              message={`文件中有 ${report.errorCount} 处问题，请修改文件后重新上传`}
              description={`没有问题的行：${summary(report, false)}。有问题时不会导入任何一行。`}
            />
          ) : (
            <Alert type="success" showIcon message="预检通过" description={`${summary(report, false)}。`} />
          )}
          {report.errorCount > 0 && <ProblemTable label="预检问题" problems={report.errors} />}
          <PrepaidWarnings o={report} done={false} />
          <Space>
            <Button onClick={restart}>重新上传</Button>
            <Button onClick={() => setStep(1)}>修改列对应</Button>
            <Button
              type="primary"
              disabled={report.errorCount > 0}
              loading={run.loading}
              onClick={() => void doImport()}
            >
              开始导入
            </Button>
          </Space>
          {run.loading && (
            <Alert
              type="info"
              showIcon
              message={`正在导入 ${(columns?.rows ?? 0) + (columns?.leadRows ?? 0)} 行，请勿关闭页面…`}
            />
          )}
          {run.loading && importBar && (
            <JobProgress p={importBar} label="导入进度" testId="import-progress" kind="import" />
          )}
        </Space>
      )}
      {step === 3 && result && importBar && (
        <JobProgress p={importBar} label="导入进度" testId="import-progress" kind="import" />
      )}
      {step === 3 && result && <PrepaidWarnings o={result} done />}
      {step === 3 && result && (
        <Result
          status="success"
          title="导入完成"
          subTitle={`${summary(result, true)}。24小时内可在操作日志中撤销这次导入。`}
          extra={[
            <Button key="again" type="primary" onClick={restart}>
              继续导入
            </Button>,
            <Link key="members" to="/member/list">
              查看会员
            </Link>,
            <Link key="log" to="/audit/log">
              操作日志
            </Link>,
          ]}
        />
      )}
    </Card>
  );
}
