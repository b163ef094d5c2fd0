import type { SentAnswer } from '@studio/contract/client';

/**
 * A sender for `call(def, payload, { send })` that reports the bytes of the request sent so far (a
 * large file's upload, 导入): XMLHttpRequest is the one browser API that tells an upload's progress.
 */
export function sendWithUploadProgress(onUpload: (sent: number, total: number) => void) {
  return (path: string, body: string, signal?: AbortSignal): Promise<SentAnswer> =>
    new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', path);
      xhr.withCredentials = true;
      xhr.setRequestHeader('content-type', 'application/json');
      xhr.upload.onprogress = (e) => onUpload(e.loaded, e.lengthComputable ? e.total : body.length);
      xhr.onload = () =>
        resolve({
          status: xhr.status,
          ok: xhr.status >= 200 && xhr.status < 300,
          json: () => Promise.resolve(JSON.parse(xhr.responseText) as unknown),
        });
      xhr.onerror = () => reject(new TypeError('network'));
      xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
      signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(body);
    });
}
