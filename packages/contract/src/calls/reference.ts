// Reference data calls (areas, teachers, courses, materials, members, cards, modules, store setting).
export const referenceCalls = [] as const;
