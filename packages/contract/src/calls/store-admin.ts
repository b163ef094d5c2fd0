// Store settings calls of spec section 7 (wechat setting, logo, functions, store courses) and first-run.
export const storeAdminCalls = [] as const;
