pub fn double(n: i32) -> i32 {
    n * 2 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_0() {
        for k in 0..20 {
            println!("step {} of 0: ................................", k);
        }
        assert_eq!(double(0), 0);
    }

    #[test]
    fn doubles_1() {
        for k in 0..20 {
            println!("step {} of 1: ................................", k);
        }
        assert_eq!(double(1), 2);
    }

    #[test]
    fn doubles_2() {
        for k in 0..20 {
            println!("step {} of 2: ................................", k);
        }
        assert_eq!(double(2), 4);
    }

    #[test]
    fn doubles_3() {
        for k in 0..20 {
            println!("step {} of 3: ................................", k);
        }
        assert_eq!(double(3), 6);
    }

    #[test]
    fn doubles_4() {
        for k in 0..20 {
            println!("step {} of 4: ................................", k);
        }
        assert_eq!(double(4), 8);
    }

    #[test]
    fn doubles_5() {
        for k in 0..20 {
            println!("step {} of 5: ................................", k);
        }
        assert_eq!(double(5), 10);
    }

    #[test]
    fn doubles_6() {
        for k in 0..20 {
            println!("step {} of 6: ................................", k);
        }
        assert_eq!(double(6), 12);
    }

    #[test]
    fn doubles_7() {
        for k in 0..20 {
            println!("step {} of 7: ................................", k);
        }
        assert_eq!(double(7), 14);
    }

    #[test]
    fn doubles_8() {
        for k in 0..20 {
            println!("step {} of 8: ................................", k);
        }
        assert_eq!(double(8), 16);
    }

    #[test]
    fn doubles_9() {
        for k in 0..20 {
            println!("step {} of 9: ................................", k);
        }
        assert_eq!(double(9), 18);
    }

    #[test]
    fn doubles_10() {
        for k in 0..20 {
            println!("step {} of 10: ................................", k);
        }
        assert_eq!(double(10), 20);
    }

    #[test]
    fn doubles_11() {
        for k in 0..20 {
            println!("step {} of 11: ................................", k);
        }
        assert_eq!(double(11), 22);
    }

    #[test]
    fn doubles_12() {
        for k in 0..20 {
            println!("step {} of 12: ................................", k);
        }
        assert_eq!(double(12), 24);
    }

    #[test]
    fn doubles_13() {
        for k in 0..20 {
            println!("step {} of 13: ................................", k);
        }
        assert_eq!(double(13), 26);
    }

    #[test]
    fn doubles_14() {
        for k in 0..20 {
            println!("step {} of 14: ................................", k);
        }
        assert_eq!(double(14), 28);
    }

    #[test]
    fn doubles_15() {
        for k in 0..20 {
            println!("step {} of 15: ................................", k);
        }
        assert_eq!(double(15), 30);
    }

    #[test]
    fn doubles_16() {
        for k in 0..20 {
            println!("step {} of 16: ................................", k);
        }
        assert_eq!(double(16), 32);
    }

    #[test]
    fn doubles_17() {
        for k in 0..20 {
            println!("step {} of 17: ................................", k);
        }
        assert_eq!(double(17), 34);
    }

    #[test]
    fn doubles_18() {
        for k in 0..20 {
            println!("step {} of 18: ................................", k);
        }
        assert_eq!(double(18), 36);
    }

    #[test]
    fn doubles_19() {
        for k in 0..20 {
            println!("step {} of 19: ................................", k);
        }
        assert_eq!(double(19), 38);
    }

    #[test]
    fn doubles_20() {
        for k in 0..20 {
            println!("step {} of 20: ................................", k);
        }
        assert_eq!(double(20), 40);
    }

    #[test]
    fn doubles_21() {
        for k in 0..20 {
            println!("step {} of 21: ................................", k);
        }
        assert_eq!(double(21), 42);
    }

    #[test]
    fn doubles_22() {
        for k in 0..20 {
            println!("step {} of 22: ................................", k);
        }
        assert_eq!(double(22), 44);
    }

    #[test]
    fn doubles_23() {
        for k in 0..20 {
            println!("step {} of 23: ................................", k);
        }
        assert_eq!(double(23), 46);
    }

    #[test]
    fn doubles_24() {
        for k in 0..20 {
            println!("step {} of 24: ................................", k);
        }
        assert_eq!(double(24), 48);
    }

    #[test]
    fn doubles_25() {
        for k in 0..20 {
            println!("step {} of 25: ................................", k);
        }
        assert_eq!(double(25), 50);
    }

    #[test]
    fn doubles_26() {
        for k in 0..20 {
            println!("step {} of 26: ................................", k);
        }
        assert_eq!(double(26), 52);
    }

    #[test]
    fn doubles_27() {
        for k in 0..20 {
            println!("step {} of 27: ................................", k);
        }
        assert_eq!(double(27), 54);
    }

    #[test]
    fn doubles_28() {
        for k in 0..20 {
            println!("step {} of 28: ................................", k);
        }
        assert_eq!(double(28), 56);
    }

    #[test]
    fn doubles_29() {
        for k in 0..20 {
            println!("step {} of 29: ................................", k);
        }
        assert_eq!(double(29), 58);
    }

    #[test]
    fn doubles_30() {
        for k in 0..20 {
            println!("step {} of 30: ................................", k);
        }
        assert_eq!(double(30), 60);
    }

    #[test]
    fn doubles_31() {
        for k in 0..20 {
            println!("step {} of 31: ................................", k);
        }
        assert_eq!(double(31), 62);
    }

    #[test]
    fn doubles_32() {
        for k in 0..20 {
            println!("step {} of 32: ................................", k);
        }
        assert_eq!(double(32), 64);
    }

    #[test]
    fn doubles_33() {
        for k in 0..20 {
            println!("step {} of 33: ................................", k);
        }
        assert_eq!(double(33), 66);
    }

    #[test]
    fn doubles_34() {
        for k in 0..20 {
            println!("step {} of 34: ................................", k);
        }
        assert_eq!(double(34), 68);
    }

    #[test]
    fn doubles_35() {
        for k in 0..20 {
            println!("step {} of 35: ................................", k);
        }
        assert_eq!(double(35), 70);
    }

    #[test]
    fn doubles_36() {
        for k in 0..20 {
            println!("step {} of 36: ................................", k);
        }
        assert_eq!(double(36), 72);
    }

    #[test]
    fn doubles_37() {
        for k in 0..20 {
            println!("step {} of 37: ................................", k);
        }
        assert_eq!(double(37), 74);
    }

    #[test]
    fn doubles_38() {
        for k in 0..20 {
            println!("step {} of 38: ................................", k);
        }
        assert_eq!(double(38), 76);
    }

    #[test]
    fn doubles_39() {
        for k in 0..20 {
            println!("step {} of 39: ................................", k);
        }
        assert_eq!(double(39), 78);
    }

    #[test]
    fn doubles_40() {
        for k in 0..20 {
            println!("step {} of 40: ................................", k);
        }
        assert_eq!(double(40), 80);
    }

    #[test]
    fn doubles_41() {
        for k in 0..20 {
            println!("step {} of 41: ................................", k);
        }
        assert_eq!(double(41), 82);
    }

    #[test]
    fn doubles_42() {
        for k in 0..20 {
            println!("step {} of 42: ................................", k);
        }
        assert_eq!(double(42), 84);
    }

    #[test]
    fn doubles_43() {
        for k in 0..20 {
            println!("step {} of 43: ................................", k);
        }
        assert_eq!(double(43), 86);
    }

    #[test]
    fn doubles_44() {
        for k in 0..20 {
            println!("step {} of 44: ................................", k);
        }
        assert_eq!(double(44), 88);
    }

    #[test]
    fn doubles_45() {
        for k in 0..20 {
            println!("step {} of 45: ................................", k);
        }
        assert_eq!(double(45), 90);
    }

    #[test]
    fn doubles_46() {
        for k in 0..20 {
            println!("step {} of 46: ................................", k);
        }
        assert_eq!(double(46), 92);
    }

    #[test]
    fn doubles_47() {
        for k in 0..20 {
            println!("step {} of 47: ................................", k);
        }
        assert_eq!(double(47), 94);
    }

    #[test]
    fn doubles_48() {
        for k in 0..20 {
            println!("step {} of 48: ................................", k);
        }
        assert_eq!(double(48), 96);
    }

    #[test]
    fn doubles_49() {
        for k in 0..20 {
            println!("step {} of 49: ................................", k);
        }
        assert_eq!(double(49), 98);
    }
}
