import { App, Modal, type FormInstance, type ModalProps } from 'antd';

type Props<V, R> = Omit<ModalProps, 'open' | 'onOk' | 'confirmLoading' | 'onCancel'> & {
  form: FormInstance<V>;
  /** Runs the write with the validated values (a `useWrite` run): undefined keeps the modal open. */
  submit: (values: V) => Promise<{ data: R } | undefined>;
  loading: boolean;
  onCancel: () => void;
  /** After a successful write; closes by default. */
  onDone?: (data: R, values: V) => void;
  /** When a field is not valid (the form shows why beside it). */
  onInvalid?: () => void;
  /**
   * A long form: a save that fails scrolls to the first field in error and names it in a toast
   * (what is wrong may be out of sight, further down the modal).
   */
  nameInvalid?: boolean;
};

/** The first field in error of a failed `validateFields`, with its message. */
function firstError(e: unknown): { name: (string | number)[]; error: string } | null {
  const f = (e as { errorFields?: { name: (string | number)[]; errors: string[] }[] } | null)?.errorFields?.[0];
  return f ? { name: f.name, error: f.errors[0] ?? '' } : null;
}

/** A modal around a form: OK validates the form, runs the write and, when it succeeds, closes. */
export function FormModal<V, R>({
  form,
  submit,
  loading,
  onCancel,
  onDone,
  onInvalid,
  okText = '保存',
  nameInvalid = false,
  ...modal
}: Props<V, R>) {
  const { message } = App.useApp();
  const onOk = async () => {
    const v = await form.validateFields().catch((e: unknown) => {
      const first = nameInvalid ? firstError(e) : null;
      if (first) {
        form.scrollToField(first.name, { block: 'center', behavior: 'smooth' });
        void message.error(`保存失败：${first.error}`);
      }
      return null;
    });
    if (!v) onInvalid?.();
    const r = v && (await submit(v));
    if (r) (onDone ?? onCancel)(r.data, v);
  };
  return <Modal open okText={okText} confirmLoading={loading} onOk={onOk} onCancel={onCancel} {...modal} />;
}
