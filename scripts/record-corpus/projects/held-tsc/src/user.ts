export interface User { id: number; name: string }

export function byId(users: User[], id: string): User | undefined {
  return users.find((u) => u.id === id);
}
