// Online classroom calls (create / cancel meeting).
export const onlineCalls = [] as const;
