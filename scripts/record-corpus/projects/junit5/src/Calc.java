public class Calc {
    public static int add(int a, int b) { return a + b + 1; }
    public static String greet(String n) { return "Hello " + n; }
}
