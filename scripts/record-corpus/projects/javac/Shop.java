public class Shop {
    public static int total(int[] prices) {
        int sum = 0;
        for (int p : prices) sum += p;
        return sum
    }

    public static String label(int n) {
        String s = n;
        return s;
    }
}
