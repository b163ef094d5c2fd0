import {
  HEALTH_CONSENT_TEXT,
  HEALTH_NOTE_MAX,
  HealthMsg,
  memberMyHealth,
  memberSubmitHealth,
  memberUpdateConsent,
} from '@studio/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, DotLoading, List, Radio, TextArea, Toast } from 'antd-mobile';
import { useEffect, useRef, useState } from 'react';
import { call } from './api.ts';

/**
 * 健康声明 on the phone: the separate consent first, then yes or no to each of the store's questions,
 * a note, and whether the manager and the member's teachers may read the answers. Private to the
 * member signed in: never kept once the screen is left (gcTime 0), like 个人信息.
 */
const KEY = ['health'];

export function useMyHealth(enabled = true) {
  return useQuery({ queryKey: KEY, queryFn: () => call(memberMyHealth, {}), gcTime: 0, enabled });
}

const fail = (e: Error) => Toast.show({ content: e.message, duration: 3000 });

/** The consent, then the form; `onDone` after the answers are in (or on 返回). */
export function HealthForm({ onDone, doneText = '返回' }: { onDone: () => void; doneText?: string }) {
  const qc = useQueryClient();
  const q = useMyHealth();
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: KEY });
    // The consent shows in 个人信息 too.
    void qc.invalidateQueries({ queryKey: ['privacy'] });
  };
  const consent = useMutation({
    mutationFn: () => call(memberUpdateConsent, { kind: 'health', granted: true }),
    onSuccess: refresh,
    onError: fail,
  });
  const d = q.data;
  const [answers, setAnswers] = useState<(boolean | null)[] | null>(null);
  const [note, setNote] = useState('');
  const [share, setShare] = useState(false);
  // The last declaration to these same questions fills the form in.
  useEffect(() => {
    if (!d || answers) return;
    const last = d.declaration?.version === d.questionnaire.version ? d.declaration : null;
    setAnswers(d.questionnaire.questions.map((_, i) => last?.answers[i]?.yes ?? null));
    setNote(last?.note ?? '');
    setShare(last?.shareDetails ?? false);
  }, [d, answers]);
  const submit = useMutation({
    mutationFn: (v: boolean[]) =>
      call(memberSubmitHealth, {
        version: d!.questionnaire.version,
        answers: v,
        note: note.trim() || null,
        shareDetails: share,
      }),
    onSuccess: (r) => {
      Toast.show({ icon: 'success', content: r.flagged ? '已提交，老师上课时会留意你的情况' : '已提交健康声明' });
      refresh();
      onDone();
    },
    onError: (e) => {
      fail(e);
      // New questions since the form was opened: start again with them.
      refresh();
      setAnswers(null);
    },
  });
  // Opened from 我的 or a class's sheet: brought into view.
  const top = useRef<HTMLDivElement>(null);
  useEffect(() => {
    top.current?.scrollIntoView({ block: 'start' });
  }, []);

  if (!d || !answers) {
    return (
      <div style={{ padding: 24, textAlign: 'center' }} ref={top}>
        {q.error ? q.error.message : <DotLoading />}
      </div>
    );
  }
  if (!d.consent) {
    return (
      <div ref={top} className="health" data-testid="health-consent">
        <section className="privacy-notice" aria-labelledby="health-consent-title">
          <h2 id="health-consent-title">健康声明需要你的单独同意</h2>
          {HEALTH_CONSENT_TEXT.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </section>
        <div className="privacy-actions">
          <Button block color="primary" loading={consent.isPending} onClick={() => consent.mutate()}>
            同意并填写
          </Button>
          <Button block fill="none" onClick={onDone}>
            {doneText}
          </Button>
        </div>
      </div>
    );
  }
  const send = () => {
    if (answers.some((a) => a === null)) {
      Toast.show({ content: HealthMsg.answers });
      return;
    }
    submit.mutate(answers as boolean[]);
  };
  return (
    <div ref={top} className="health" data-testid="health-form">
      <List
        header={
          d.declaration ? `健康声明（上次填写：${d.declaration.answeredAt.slice(0, 10)}）` : '健康声明（上课前填写）'
        }
      >
        {d.questionnaire.questions.map((question, i) => (
          <List.Item key={`${i}-${question}`}>
            <div className="health-question" id={`health-q-${i}`}>
              {i + 1}. {question}
            </div>
            <Radio.Group
              value={answers[i] === null ? undefined : answers[i] ? 'yes' : 'no'}
              onChange={(v) => setAnswers(answers.map((a, j) => (j === i ? v === 'yes' : a)))}
            >
              <div role="radiogroup" aria-labelledby={`health-q-${i}`} className="health-choice">
                <Radio value="no" data-testid={`health-${i}-no`}>
                  否
                </Radio>
                <Radio value="yes" data-testid={`health-${i}-yes`}>
                  是
                </Radio>
              </div>
            </Radio.Group>
          </List.Item>
        ))}
        <List.Item>
          <label className="health-question" htmlFor="health-note">
            补充说明（选填）
          </label>
          <TextArea
            id="health-note"
            placeholder="例如：哪里受过伤、医生的建议"
            maxLength={HEALTH_NOTE_MAX}
            value={note}
            onChange={setNote}
            autoSize={{ minRows: 2, maxRows: 5 }}
          />
        </List.Item>
        <List.Item>
          <Checkbox checked={share} onChange={setShare} data-testid="health-share">
            允许店长和给我上课的老师查看具体回答（不允许时，他们只看到「健康提示」）
          </Checkbox>
        </List.Item>
      </List>
      <div className="privacy-actions">
        <Button block color="primary" loading={submit.isPending} onClick={send} data-testid="health-submit">
          提交健康声明
        </Button>
        <Button block fill="none" onClick={onDone}>
          {doneText}
        </Button>
      </div>
    </div>
  );
}

/** 我的 → 健康声明: whether one is due, the form on tapping. */
export function MyHealth() {
  const q = useMyHealth();
  const [open, setOpen] = useState(false);
  if (open) return <HealthForm onDone={() => setOpen(false)} />;
  const d = q.data;
  return (
    <List header="健康">
      <List.Item
        arrow
        onClick={() => setOpen(true)}
        data-testid="my-health"
        description={
          !d
            ? ''
            : d.due
              ? d.declaration
                ? '已超过一年或问题有更新，请重新填写'
                : '上课前请填写'
              : `已填写（${d.declaration!.answeredAt.slice(0, 10)}）`
        }
      >
        健康声明
      </List.Item>
    </List>
  );
}

/**
 * Before booking (a class's sheet): a member whose declaration is due is asked first. When the store
 * requires it the booking waits for it (`blocks`); otherwise they may fill it in later.
 */
export function useHealthAsk(signedIn: boolean) {
  const q = useMyHealth(signedIn);
  const due = q.data?.due === true;
  return { due, blocks: due && q.data?.required === true };
}
