export interface User {
  id: number;
  name: string;
  email?: string;
}

export function greet(u: User): string {
  return `Hi ${u.name.toUpperCase()} <${u.email.toLowerCase()}>`;
}

export function byId(users: User[], id: string): User | undefined {
  return users.find((u) => u.id === id);
}

const admin: User = { id: 1, nom: 'Zoë' };
export default admin;
